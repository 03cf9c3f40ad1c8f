export * from "./accounts";
export * from "./apps";
export * from "./billing";
export * from "./system";
export * from "./users";
