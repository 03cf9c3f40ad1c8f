import fs from "node:fs";
import path from "node:path";

// Loads .env (from the directory npm runs in) into process.env, the real environment winning.
// Every command of package.json imports this module FIRST, as a bare import: imports run before
// the importing file's own code, in the order written, so a module further down that reads
// process.env as it loads (a port, a pool size) already sees .env. Calling a loader inside
// main() comes too late for those. The Next server reads .env itself as well; same file, same
// rule (the environment wins).
const file = path.resolve(".env");
if (fs.existsSync(file)) process.loadEnvFile(file);
