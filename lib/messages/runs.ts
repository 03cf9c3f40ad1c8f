// Tool runs by end users, and what a run was grounded in. Part of the catalogue in lib/messages/index.ts.
export const runsMessages = {
  // Tool runs by end users (our own wording; lib/runs)
  runNotAvailable: "This tool is not available right now, try again later",
  runSignInRequired: "Sign in to use this app",
  runFieldRequired: "Please fill in {label}",
  runOptionInvalid: "Choose one of the options for {label}",
  runNumberInvalid: "Enter a number for {label}",
  runPhotoInvalid: "Upload a photo for {label} from your device",
  runPhotoNotAsked: "This tool does not ask for a photo",
  runPhotoType: "Choose a JPEG, PNG, WebP or GIF photo",
  runInputEmpty: "Please fill in the form first",
  runDailyLimit: "You've reached your daily limit for this app. It resets {resetsAt}.",
  runWeeklyLimit: "You've reached your weekly limit for this app. It resets {resetsAt}.",
  runFailed: "The tool could not answer right now, try again later",
  runInterrupted: "The answer was cut off, try again",
  runTimedOut: "The answer took too long, try again",
  runServerStopped: "The server stopped before the answer was finished",
  runCancelled: "The run was cancelled",

  // A run's context: what its model was grounded in (lib/runs/run-context.ts), for its builder
  runNotFound: "Run not found",
  runContextTitle: "Data used",
  runContextShow: "Show the data this run used",
  runContextLoading: "Loading the data this run used…",
  runContextFailed: "The data this run used could not be loaded.",
  runContextExcerpts:
    "{n} excerpts of the app's data sources were sent to the model, best match first. Open one to read it as sent.",
  runContextOneExcerpt:
    "1 excerpt of the app's data sources was sent to the model. Open it to read it as sent.",
  runContextExcerpt: "{source}, part {position}",
  runContextRows: "{n} rows of the app's item lists matched the run's choices and were sent to the model.",
  runContextOneRow: "1 row of the app's item lists matched the run's choices and was sent to the model.",
  runContextRow: "{source}, row {position}",
  runContextScore: "Score",
  runContextDeletedSource: "Deleted data source",
  runContextRunning: "This run is still in progress: the data it used shows once it ends.",
  runContextNotRecorded:
    "No data was recorded for this run: it ended before the app's data was read, or it ran before runs kept this.",
  runContextNoWords:
    "No excerpts were sent: the run's inputs held no words to search the app's data with. Runs with text inputs are grounded in the best matching excerpts.",
  runContextNoSources:
    "No excerpts were sent: this app has no synced data sources. Add documents or an item list under Data sources in the editor so runs are grounded in them.",
  runContextNothingMatched:
    "No excerpts were sent: nothing in the app's data sources matched the run's inputs. Check that the sources hold the answer, in the words your users ask with.",
  runContextNoRowsMatched:
    "No items were sent: no row of the app's item lists matched the run's choices. Check that the fields' labels name the lists' columns and the options match their values.",
  analyticsRunModel: "Model",
  analyticsRunDuration: "Duration",
  analyticsCostUnknown: "Unknown",
  analyticsEmptyTitle: "No runs in this period",
  analyticsEmptyText:
    "Share your app's link so people can use it: their runs, sign-ups, tokens and costs show up here as they happen.",
  analyticsCopyLink: "Copy app link",
  analyticsLinkCopied: "Link copied",
  analyticsOpenApp: "Open app",
  appAnalytics: "Analytics",
} as const;
