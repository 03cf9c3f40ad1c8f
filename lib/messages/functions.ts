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
  functionImportsRefused: "Functions cannot import other files or packages yet ({specifier})",
  functionNoHandler: "The function must call Deno.serve(handler) or export a default handler",
  functionStartFailed: "The function could not be started",
} as const;
