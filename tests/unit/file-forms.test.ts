// The workspace's folder paths (lib/web/file-forms.ts folderPath): where "create folder" puts a new
// folder and what breadcrumbs and "move to" show; a chain that is broken or loops is no path. And a
// view's link parameters (viewParams), which its pages, filters and the way back after a form share.
import { describe, expect, it } from 'vitest';
import { folderPath, viewSchema } from '@/lib/web/file-forms';
import { viewParams, type WorkspaceView } from '@/lib/shared/workspace-view';

const folders = [
  { n: 1, filename: 'reports', parent: -1 },
  { n: 4, filename: '2026', parent: 1 },
  { n: 9, filename: 'q1', parent: 4 },
  { n: 12, filename: 'orphan', parent: 30 },
  { n: 20, filename: 'a', parent: 21 },
  { n: 21, filename: 'b', parent: 20 },
];

describe('folderPath', () => {
  it('names the folders from the top level down', () => {
    expect(folderPath(folders, 1)).toEqual(['reports']);
    expect(folderPath(folders, 9)).toEqual(['reports', '2026', 'q1']);
  });
  it('is null for a folder that is not live, below one that is not, or in a loop', () => {
    expect(folderPath(folders, 99)).toBeNull();
    expect(folderPath(folders, 12)).toBeNull();
    expect(folderPath(folders, 20)).toBeNull();
  });
});

describe('viewParams', () => {
  const cases: [WorkspaceView, Record<string, string | number | undefined>][] = [
    [
      { place: -1, filter: 'all', sort: 'modified' },
      { folder: undefined, type: undefined, sort: undefined },
    ],
    [
      { place: 7, filter: 'grid', sort: 'name' },
      { folder: 7, type: 'grid', sort: 'name' },
    ],
    [
      { place: { uses: 3 }, filter: 'plot', sort: 'views' },
      { uses: 3, type: 'plot', sort: 'views' },
    ],
    // The trash has one order: a sort asked for is left out.
    [
      { place: 'trash', filter: 'plot', sort: 'name' },
      { view: 'trash', type: 'plot', sort: undefined },
    ],
  ];
  it.each(cases)('%j', (view, params) => expect(viewParams(view)).toEqual(params));

  it('reads a form or URL that names no view, or a bad one, as the default view', () => {
    expect(viewSchema.parse({})).toEqual({ type: 'all', sort: 'modified' });
    expect(viewSchema.parse({ type: 'secrets', sort: '-1; drop' })).toEqual({ type: 'all', sort: 'modified' });
    expect(viewSchema.parse({ type: 'grid', sort: 'views' })).toEqual({ type: 'grid', sort: 'views' });
  });
});
