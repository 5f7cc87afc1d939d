// The workspace's folder paths (lib/web/file-forms.ts folderPath): where "create folder" puts a new
// folder and what breadcrumbs and "move to" show; a chain that is broken or loops is no path.
import { describe, expect, it } from 'vitest';
import { folderPath } from '@/lib/web/file-forms';

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
