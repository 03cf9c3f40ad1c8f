import { GENERATED_FILE, writeApiRoutes } from "./api-routes";

// npm run api:routes - rewrites app/api/routes.generated.ts from app/api/**/route.ts
// (next.config.ts runs it before next dev, next build and next typegen).
const changed = writeApiRoutes(process.cwd());
console.log(`${GENERATED_FILE}: ${changed ? "updated" : "up to date"}`);
