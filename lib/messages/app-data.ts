// The data API of a space app's own code (lib/app-data): what its calls answer when refused.
// The spec names none of these; the app's code shows them to its end users.
export const appDataMessages = {
  appTokenExpired: "Your sign-in to this app has expired, please sign in again",
  appTokenInvalid: "This sign-in is not valid for this app",
  appDataSignInRequired: "Please sign in to do this",
  appDataForbidden: "You don't have permission to do this",
  appDataFieldInvalid: "{field} {problem}",
  appDataFieldRequired: "is required",
  appDataFieldUnknown: "is not a field of this entity",
  appDataFieldNotValid: "is not valid",
  appDataBuiltInField: "{field} is set by the app and cannot be written",
  appDataRecordTooLarge: "A record can be at most {size}",
  appDataTooManyRecords: "At most {n} records can be created at once",
  appDataRecordChanged: "This record was changed meanwhile, reload it and try again",
  appDataRateLimited: "Too many changes in a short time, please wait a minute",
  appDataFilterInvalid:
    "A filter is an object of field names and plain values (text, numbers, true or false)",
  appDataSchemaInvalid: "The {entity} entity's schema cannot be used to check records: {problem}",
  appDataTooDeep: "A record can nest objects and lists at most 32 levels deep",
  appDataRoleAdminOnly: "Only the app's admins can change a user's role",
} as const;
