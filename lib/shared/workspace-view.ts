// A view of the workspace (`/~owner/`): where (a folder, the trash, or the plots drawing from a grid),
// which kind of file, in which order, and the link parameters that carry it, which its pages, filters
// and the way back after a form share. Pure: the lists read views with it and the workspace's links
// and forms are built with it.

/** Where the files listed are: a folder (-1 the top level), the trash, or the owner's plots drawing from grid `uses`. */
export type OwnPlace = number | 'trash' | { uses: number };

/** The kinds of file a list can be narrowed to (themes and templates are plots of their own kind). */
export const OWN_FILTERS = ['all', 'plot', 'grid', 'fold', 'dashboard', 'spectacle_presentation', 'theme', 'template'] as const;
export type OwnFilter = (typeof OWN_FILTERS)[number];

/** The orders: latest modified first, by name (A to Z), most viewed first. The trash is always latest trashed first. */
export const OWN_SORTS = ['modified', 'name', 'views'] as const;
export type OwnSort = (typeof OWN_SORTS)[number];

/** A workspace view: a place, of a kind, in an order. */
export interface WorkspaceView {
  place: OwnPlace;
  filter: OwnFilter;
  sort: OwnSort;
}

/** The link parameters of a workspace view (defaults left out), for its pages, forms and filters, and the way back to it. */
export function viewParams({ place, filter, sort }: WorkspaceView): Record<string, string | number | undefined> {
  const where = place === 'trash' ? { view: 'trash' } : typeof place === 'object' ? { uses: place.uses } : { folder: place === -1 ? undefined : place };
  return { ...where, type: filter === 'all' ? undefined : filter, sort: sort === 'modified' || place === 'trash' ? undefined : sort };
}
