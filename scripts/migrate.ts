import "./load-env";
import { ensureDatabaseUrl } from "./prepare-env";

// npm run db:migrate - applies committed migrations (starting the embedded database if needed).
async function main() {
  const local = await ensureDatabaseUrl();
  console.log("Migrations applied.");
  await local?.stop();
}
void main();
