export * from "./accounts";
export * from "./apps";
export * from "./billing";
export * from "./context";
export * from "./system";
export * from "./users";
