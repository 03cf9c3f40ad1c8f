import { notFound } from "next/navigation";
import { connection } from "next/server";

// Why this exists: `npm run bench` states the first-load JS of the public app page and of the
// editor as ratios to the least a page of this app can ship: the root layout and Next's runtime
// with one line of server-rendered text and no client component of its own. This is that page.
// Its bundle is built like any other (the ratio reads it from the build); serving it answers 404
// unless the server runs with BENCH_ROUTES=1, so it is inert in normal use.
export default async function BenchMinimalPage() {
  await connection(); // read the variable per request, not once when the build prerenders
  if (process.env.BENCH_ROUTES !== "1") notFound();
  return <main className="p-4">bench: minimal page</main>;
}
