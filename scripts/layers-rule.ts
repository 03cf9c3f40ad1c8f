// The import rule of the code base, as pure functions over import edges: scripts/layers.ts reads
// the edges with esbuild and reports; tests/unit/layers-rule.test.ts feeds it made-up edges.

/** lib/ modules below db/: they import no other module of ours but each other. */
export const KERNEL = /^lib\/((log|env|constants|text|errors|ids|storable-text)\.ts|messages\/[a-z-]+\.ts)$/;

type Rule = { name: string; from: RegExp; to: RegExp; allowed?: (from: string, to: string) => boolean };

export const RULES: Rule[] = [
  {
    name: "db imports nothing above it",
    from: /^db\//,
    to: /^(lib|components|app)\//,
    allowed: (_, to) => KERNEL.test(to),
  },
  {
    name: "the kernel imports nothing but the kernel",
    from: KERNEL,
    to: /^(lib|db|components|app)\//,
    allowed: (_, to) => KERNEL.test(to),
  },
  { name: "lib imports no component or route", from: /^lib\//, to: /^(components|app)\// },
  { name: "components import no page or route", from: /^components\//, to: /^app\// },
  {
    name: "pages and routes read data through lib",
    from: /^app\//,
    to: /^db\//,
    // The benchmark's bare baselines do on purpose what a route does without our layers.
    allowed: (from) => from.startsWith("app/api/bench/"),
  },
];

/** The folder a file counts in for cycles: lib/<domain>, components/<folder>, db/<folder>, or app. */
export function folderOf(file: string): string | null {
  if (file.startsWith("app/")) return "app";
  const m = /^(lib|components|db)\/([^/]+)(\/)?/.exec(file);
  if (!m) return null;
  // A file at the root of lib/ (messages, constants, env...) is a folder of its own.
  return m[3] ? `${m[1]}/${m[2]}` : `${m[1]}/${m[2]!.replace(/\.(ts|tsx|mjs)$/, "")}`;
}

/** The folder graph's edges that lie on a cycle (both ends in one strongly connected component). */
export function cycleEdges(graph: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  let next = 0;
  let components = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (!component.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      let w: string;
      do {
        w = stack.pop()!;
        component.set(w, components);
      } while (w !== v);
      components++;
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  const onCycle: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) if (component.get(from) === component.get(to)) onCycle.push(`${from} -> ${to}`);
  }
  return onCycle.sort();
}

export function folderGraph(edges: [string, string][]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [from, to] of edges) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

export function breaches(edges: [string, string][]): string[] {
  const found = new Set<string>();
  for (const [from, to] of edges) {
    for (const rule of RULES) {
      if (rule.from.test(from) && rule.to.test(to) && !rule.allowed?.(from, to)) {
        found.add(`${from} -> ${to} (${rule.name})`);
      }
    }
  }
  return [...found].sort();
}
