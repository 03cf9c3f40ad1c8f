// A space app's backend functions: what a call answers when the function cannot.
export const functionsMessages = {
  // Not in the spec: our wording.
  functionTimedOut: "The function took longer than {seconds} seconds and was stopped",
  functionCrashed: "The function stopped before answering (it may have run out of memory or CPU time)",
  functionThrew: "The function failed with an error",
  functionNoResponse: "The function did not answer with a Response",
  functionResponseTooLarge: "The function's answer is larger than {max}",
  functionRequestTooLarge: "A function's request body can be at most {max}",
  functionBuildFailed: "The function could not be built: {details}",
  functionImportsRefused:
    'Functions can import only "@app/client" (the app\'s data), not other files or packages yet ({specifier})',
  functionNoHandler: "The function must call Deno.serve(handler) or export a default handler",
  functionStartFailed: "The function could not be started",
  // Deploying and calling them.
  functionUnpublished: "App must be published to get webhook URL. Please publish the app first.",
  functionNameUnknown: "Could not determine function name",
  functionDeployed: "Function deployed successfully!",
  functionMissingSecrets: "Missing required secrets",
  functionMissingSecretsReason: "Missing required secrets: {names}",
  functionDeployFailed: "Failed to deploy function. Please try again.",
  functionDeployError: "An error occurred during deployment",
  functionsRedeployed: "Successfully redeployed {n} function(s)",
  functionsDeployedPartly: "Deployed {n} of {m} functions. Check results below.",
  functionsDeployFailed: "Failed to deploy all functions. Check results below.",
  functionNotDeployed: "This function is not deployed",
  functionRateLimited: "Too many calls to this app's functions. Please wait a minute and try again.",
} as const;
