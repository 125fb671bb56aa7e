// No cycles between folders of electron/services (serviceCycles.ts). The finder is proven on
// synthetic graphs and a synthetic folder tree first, so the check on the real tree can fail.
import { describe, expect, it } from 'vitest';
import { tempTrees } from './testing.ts';
import {
  KNOWN_CYCLES_BEING_BROKEN,
  arrowsGone,
  cyclicComponents,
  describeComponent,
  serviceFolderGraph,
  withoutArrows,
  type FolderGraph,
} from './serviceCycles.ts';

function graphOf(arrows: [string, string][]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [from, to] of arrows) {
    if (!graph.has(to)) graph.set(to, new Map());
    const out = graph.get(from) ?? new Map<string, string[]>();
    out.set(to, [`${from}x.ts → ${to}y.ts`]);
    graph.set(from, out);
  }
  return graph;
}

describe('the cycle finder', () => {
  it('finds no component in a graph without cycles', () => {
    expect(
      cyclicComponents(
        graphOf([
          ['a/', 'b/'],
          ['b/', 'c/'],
          ['a/', 'c/'],
        ]),
      ),
    ).toEqual([]);
  });

  it('finds a three-folder cycle and leaves the folder that only leads into it out', () => {
    const graph = graphOf([
      ['a/', 'b/'],
      ['b/', 'c/'],
      ['c/', 'a/'],
      ['d/', 'a/'],
    ]);
    expect(cyclicComponents(graph)).toEqual([['a/', 'b/', 'c/']]);
  });

  it('finds two separate cycles', () => {
    const graph = graphOf([
      ['a/', 'b/'],
      ['b/', 'a/'],
      ['c/', 'd/'],
      ['d/', 'c/'],
      ['b/', 'c/'],
    ]);
    expect(cyclicComponents(graph)).toEqual([
      ['a/', 'b/'],
      ['c/', 'd/'],
    ]);
  });

  it('names every arrow of a cycle with the files that make it', () => {
    const graph = graphOf([
      ['a/', 'b/'],
      ['b/', 'a/'],
    ]);
    expect(describeComponent(graph, ['a/', 'b/'])).toBe(
      ['cycle: a/ ⇄ b/', '  a/ → b/', '      a/x.ts → b/y.ts', '  b/ → a/', '      b/x.ts → a/y.ts'].join(
        '\n',
      ),
    );
  });

  it('ignores a known arrow, still fails on a cycle that does not use it, and reports known arrows gone', () => {
    const graph = graphOf([
      ['a/', 'b/'],
      ['b/', 'a/'],
      ['b/', 'c/'],
      ['c/', 'b/'],
    ]);
    expect(cyclicComponents(withoutArrows(graph, [['b/', 'a/']]))).toEqual([['b/', 'c/']]);
    expect(
      cyclicComponents(
        withoutArrows(graph, [
          ['b/', 'a/'],
          ['c/', 'b/'],
        ]),
      ),
    ).toEqual([]);
    expect(
      arrowsGone(graph, [
        ['b/', 'a/'],
        ['a/', 'c/'],
      ]),
    ).toEqual(['a/ → c/']);
  });
});

describe('the folder graph read from source', () => {
  const tree = tempTrees('service-cycles-');

  it('sees a value import back as a cycle, with root files as nodes of their own', () => {
    const root = tree({
      'a/x.ts': "import { y } from '../b/y.ts';\nexport const x = y;\n",
      'b/y.ts': "import { r } from '../root.ts';\nexport const y = r;\n",
      'root.ts': "export { x } from './a/x.ts';\nexport const r = 1;\n",
    });
    const graph = serviceFolderGraph(root);
    expect(cyclicComponents(graph)).toEqual([['a/', 'b/', 'root.ts']]);
    expect(describeComponent(graph, ['a/', 'b/', 'root.ts'])).toContain('a/x.ts → b/y.ts');
  });

  it('sees a dynamic import as an arrow', () => {
    const root = tree({
      'a/x.ts': "export const x = () => import('../b/y.ts');\n",
      'b/y.ts': "import { x } from '../a/x.ts';\nexport const y = x;\n",
    });
    expect(cyclicComponents(serviceFolderGraph(root))).toEqual([['a/', 'b/']]);
  });

  it('leaves out import type, export type, tests and test helpers', () => {
    const root = tree({
      'a/x.ts': "import { y } from '../b/y.ts';\nexport const x = y;\nexport type X = number;\n",
      'b/y.ts':
        "import type { X } from '../a/x.ts';\nexport type { X as Z } from '../a/x.ts';\nexport const y: X = 1;\n",
      'b/y.test.ts': "import { x } from '../a/x.ts';\nconsole.log(x);\n",
      'b/testing.ts': "import { x } from '../a/x.ts';\nexport const t = x;\n",
      'b/testing/helper.ts': "import { x } from '../../a/x.ts';\nexport const h = x;\n",
    });
    const graph = serviceFolderGraph(root);
    expect(cyclicComponents(graph)).toEqual([]);
    expect([...(graph.get('b/')?.keys() ?? [])]).toEqual([]);
  });
});

describe('electron/services', () => {
  it('has no cycle between its folders besides the known ones being broken', () => {
    const graph = serviceFolderGraph();
    const cycles = cyclicComponents(withoutArrows(graph, KNOWN_CYCLES_BEING_BROKEN));
    expect(cycles.map((c) => describeComponent(graph, c)).join('\n')).toBe('');
  });
});
