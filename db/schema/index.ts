export * from "./accounts";
export * from "./apps";
export * from "./system";
export * from "./users";
