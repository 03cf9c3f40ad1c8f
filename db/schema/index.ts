export * from "./accounts";
export * from "./apps";
export * from "./billing";
export * from "./context";
export * from "./integrations";
export * from "./system";
export * from "./users";
