import { dictionary } from "@zxcvbn-ts/language-common";

// ~49k passwords seen most often in breaches, from zxcvbn's common list.
let list: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  list ??= new Set(dictionary["passwords-common"]);
  return list.has(password.toLowerCase());
}
