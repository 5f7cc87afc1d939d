// The URL module: every part encoded, so an owner's name or a share key can never change a URL's
// shape (a path segment, a query parameter); the names that exist (records.ts USERNAME) pass unchanged.
import { describe, expect, it } from 'vitest';
import { USERNAME } from '@/lib/core/records';
import {
  apiFilePath,
  avatarPath,
  chartContentPath,
  contentPath,
  filePath,
  fileUrls,
  imagePath,
  newChartPath,
  parentApiPath,
  profilePath,
  signInFirst,
  signInPath,
  userUrls,
  withShareKey,
  workspacePath,
} from '@/lib/shared/urls';

/** Owners with characters a URL must encode (none is a valid username; the encoding holds regardless). */
const HOSTILE = ['a b', 'x/y', 'q?r', 'h#t', 'p%20', 'ü', 'a:b', '..', 'a&b=c'];
/** Valid usernames, with every kind of character USERNAME allows. */
const VALID = ['alice', 'Bob.Smith', 'x_1-2', '9lives'];

const BASE = 'http://plots.test';
const at = (path: string) => new URL(path, BASE);

describe('the new chart editor', () => {
  it.each([
    [undefined, undefined, '/create/chart'],
    [{ owner: 'alice', n: 3 }, undefined, '/create/chart?grid=alice:3'],
    [{ owner: 'alice', n: 3 }, { owner: 'Bob.Smith', n: 12 }, '/create/chart?grid=alice:3&template=Bob.Smith:12'],
    [{ owner: 'a&b=c', n: 3 }, { owner: 'x#y', n: 1 }, '/create/chart?grid=a%26b%3Dc:3&template=x%23y:1'],
  ])('grid %j, template %j: %s', (grid, template, path) => {
    expect(newChartPath(grid, template)).toBe(path);
    if (grid) expect(at(path).searchParams.get('grid')).toBe(`${grid.owner}:${grid.n}`);
    if (template) expect(at(path).searchParams.get('template')).toBe(`${template.owner}:${template.n}`);
  });
});

describe('paths', () => {
  it('valid usernames pass unchanged', () => {
    for (const owner of VALID) {
      expect(USERNAME.test(owner)).toBe(true);
      expect(profilePath(owner)).toBe(`/~${owner}/`);
      expect(filePath(owner, 7)).toBe(`/~${owner}/7/`);
      expect(filePath(owner, 7, 'embed')).toBe(`/~${owner}/7.embed`);
      expect(filePath(owner, 7, 'json')).toBe(`/~${owner}/7.json`);
      expect(filePath(owner, 7, 'csv')).toBe(`/~${owner}/7.csv`);
      expect(imagePath(owner, 7)).toBe(`/~${owner}/7.png`);
      expect(imagePath(owner, 7, 'list-thumb')).toBe(`/~${owner}/7.png?size=list-thumb`);
      expect(avatarPath(owner)).toBe(`/avatars/${owner}.svg`);
      expect(apiFilePath('grids', owner, 7)).toBe(`/v2/grids/${owner}:7`);
      expect(contentPath(owner, 7)).toBe(`/v2/plots/${owner}:7/content`);
      expect(chartContentPath(owner, 7)).toBe(`/v2/plots/${owner}:7/content?inline_data=true&map_data=unreadable`);
      expect(parentApiPath(owner, -1)).toBe(`/v2/folders/home?user=${owner}`);
      expect(parentApiPath(owner, 3)).toBe(`/v2/folders/${owner}:3`);
    }
  });

  it.each(HOSTILE)('an owner named %j stays one path segment (or one query value)', (owner) => {
    const segments = (path: string) => at(path).pathname.split('/').slice(1);
    expect(USERNAME.test(owner)).toBe(false);
    expect(segments(profilePath(owner))).toEqual([`~${encodeURIComponent(owner)}`, '']);
    for (const form of ['page', 'embed', 'png', 'json', 'csv'] as const) {
      const url = at(filePath(owner, 7, form));
      expect(url.search).toBe('');
      expect(url.hash).toBe('');
      expect(decodeURIComponent(url.pathname.split('/')[1])).toBe(`~${owner}`);
    }
    expect(at(imagePath(owner, 7, 'block-thumb')).searchParams.get('size')).toBe('block-thumb');
    expect(decodeURIComponent(segments(avatarPath(owner))[1])).toBe(`${owner}.svg`);
    expect(decodeURIComponent(segments(apiFilePath('plots', owner, 7))[2])).toBe(`${owner}:7`);
    const content = at(chartContentPath(owner, 7));
    expect(segments(content.pathname)).toHaveLength(4);
    expect([...content.searchParams]).toEqual([
      ['inline_data', 'true'],
      ['map_data', 'unreadable'],
    ]);
    expect(at(parentApiPath(owner, -1)).searchParams.get('user')).toBe(owner);
    expect([...at(workspacePath(owner, { view: 'trash', notice: 'restored' })).searchParams]).toEqual([
      ['view', 'trash'],
      ['notice', 'restored'],
    ]);
  });
});

describe('signing in first', () => {
  it('the sign-in page carries where to go after, whole, and a refused attempt its error code before it', () => {
    const next = '/~ann/3/?share_key=a&b#c';
    const back = at(signInFirst(next));
    expect(back.pathname).toBe('/signin');
    expect([...back.searchParams]).toEqual([['next', next]]);
    expect(signInFirst('/feed')).toBe('/signin?next=%2Ffeed');
    expect(signInPath({ error: 'wrong', next: '/feed' })).toBe('/signin?error=wrong&next=%2Ffeed');
    expect(signInPath({ error: 'missing', next: null })).toBe('/signin?error=missing');
    expect(signInPath()).toBe('/signin');
  });
});

describe('share keys', () => {
  it.each([
    ['AbC-_09xyz', 'AbC-_09xyz'],
    ['a+b/c=', 'a%2Bb%2Fc%3D'],
    ['k&admin=1#x', 'k%26admin%3D1%23x'],
  ])('%j is carried as one value', (key, encoded) => {
    expect(withShareKey('/~alice/7/', key)).toBe(`/~alice/7/?share_key=${encoded}`);
    const content = at(withShareKey(chartContentPath('alice', 7), key));
    expect(content.searchParams.get('share_key')).toBe(key);
    expect(content.searchParams.get('map_data')).toBe('unreadable');
    expect([...content.searchParams.keys()]).toEqual(['inline_data', 'map_data', 'share_key']);
  });

  it('no key, no parameter', () => {
    for (const key of [null, undefined, '']) expect(withShareKey('/~alice/7/', key)).toBe('/~alice/7/');
  });
});

describe('records', () => {
  it('are the paths at the origin', () => {
    expect(fileUrls(BASE, 'alice', 7)).toEqual({
      web_url: `${BASE}/~alice/7/`,
      embed_url: `${BASE}/~alice/7.embed`,
      image_urls: {
        default: `${BASE}/~alice/7.png`,
        'block-thumb': `${BASE}/~alice/7.png?size=block-thumb`,
        'list-thumb': `${BASE}/~alice/7.png?size=list-thumb`,
      },
    });
    expect(userUrls(BASE, 'a b')).toEqual({
      profile_url: `${BASE}/~a%20b/`,
      avatar_url: `${BASE}/avatars/a%20b.svg`,
      background_url: `${BASE}/background.svg`,
    });
  });

  it('workspace parameters keep their order and leave unset ones out', () => {
    expect(workspacePath('alice', {})).toBe('/~alice/');
    expect(workspacePath('alice', { folder: undefined, notice: 'trashed', plot: undefined })).toBe('/~alice/?notice=trashed');
    expect(workspacePath('alice', { folder: 4, notice: 'shared', plot: 9 })).toBe('/~alice/?folder=4&notice=shared&plot=9');
  });
});
