// No cycles between the folders of electron/services: each folder (agents/, calls/, db/, …) is a
// node, each root file (createDesk.ts, queries.ts, …) a node of its own, and a value import from a
// file in one node to a file in another is an arrow. Tests and test helpers (`*.test.ts`,
// `testing.ts`, `testing/`) are left out: no product file imports them, and a helper that builds a
// whole desk necessarily sits above every folder. `import type` is erased at run time and is no
// arrow (importGraph.ts). Run: `npm exec -- node scripts/serviceCycles.ts`.
import path from 'node:path';
import { sourceFilesUnder, valueImportsOf } from './importGraph.ts';

/** Arrow from one node to another, with the file pairs that make it. */
export type FolderGraph = Map<string, Map<string, string[]>>;

const servicesDir = path.resolve(import.meta.dirname, '../electron/services');
const testOnly = /(\.test\.tsx?$|(^|\/)testing\.ts$|(^|\/)testing\/)/;

// TEMPORARY (issue 26): arrows other branches are removing right now, each `from → to`. The check
// ignores them, so it fails on any other cycle; the lead empties this list once those branches
// are merged. Do not add to it.
export const KNOWN_CYCLES_BEING_BROKEN: [from: string, to: string][] = [];

/** The node a file belongs to: its first folder under electron/services, or the root file itself. */
export function nodeOf(relativeToServices: string): string {
  const [first, ...rest] = relativeToServices.split(path.sep);
  return rest.length > 0 ? `${first}/` : (first ?? relativeToServices);
}

export function serviceFolderGraph(root: string = servicesDir): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of sourceFilesUnder(root)) {
    const fromRel = path.relative(root, file);
    if (testOnly.test(fromRel.split(path.sep).join('/'))) continue;
    const from = nodeOf(fromRel);
    const arrows = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, arrows);
    for (const { resolved } of valueImportsOf(file)) {
      if (!resolved) continue;
      const toRel = path.relative(root, resolved);
      if (toRel.startsWith('..')) continue;
      const to = nodeOf(toRel);
      if (to === from) continue;
      const pairs = arrows.get(to) ?? [];
      pairs.push(`${fromRel} → ${toRel}`);
      arrows.set(to, pairs);
    }
  }
  return graph;
}

/** Strongly connected components (Tarjan), each sorted; only those of more than one node. */
export function cyclicComponents(graph: FolderGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The arrows inside one component, each with the files that make it, for the failure message. */
export function describeComponent(graph: FolderGraph, component: string[]): string {
  const members = new Set(component);
  const lines = [`cycle: ${component.join(' ⇄ ')}`];
  for (const from of component)
    for (const [to, pairs] of graph.get(from) ?? [])
      if (members.has(to)) lines.push(`  ${from} → ${to}`, ...pairs.map((p) => `      ${p}`));
  return lines.join('\n');
}

/** The graph without the given arrows (the known cycles being broken). */
export function withoutArrows(graph: FolderGraph, arrows: [from: string, to: string][]): FolderGraph {
  const copy: FolderGraph = new Map([...graph].map(([from, out]) => [from, new Map(out)]));
  for (const [from, to] of arrows) copy.get(from)?.delete(to);
  return copy;
}

/** Known arrows the graph no longer has: they can leave KNOWN_CYCLES_BEING_BROKEN. */
export function arrowsGone(graph: FolderGraph, arrows: [from: string, to: string][]): string[] {
  return arrows.filter(([from, to]) => !graph.get(from)?.has(to)).map(([from, to]) => `${from} → ${to}`);
}

if (import.meta.filename === process.argv[1]) {
  const graph = serviceFolderGraph();
  const components = cyclicComponents(graph);
  for (const c of components) console.log(describeComponent(graph, c));
  const unknown = cyclicComponents(withoutArrows(graph, KNOWN_CYCLES_BEING_BROKEN));
  console.log(
    `${components.length} cycle(s) between folders of electron/services, ${unknown.length} not known`,
  );
  const gone = arrowsGone(graph, KNOWN_CYCLES_BEING_BROKEN);
  if (gone.length > 0) console.log(`gone, remove from KNOWN_CYCLES_BEING_BROKEN: ${gone.join(', ')}`);
  process.exitCode = unknown.length > 0 ? 1 : 0;
}
