// What the dashboard builder is handed and what its server actions answer (shared by the page loader
// in lib/web and the client component, which imports nothing server-side).
import type { Visibility } from '@/lib/shared/sharing';
import type { TreeNode } from './tree';

/** A plot a box names, as this viewer may see it: never the title of one they may not read. */
export interface BuilderPlot {
  fileId: string;
  readable: boolean;
  title: string;
  /** Its page and thumbnail (with the box's share key), when readable. */
  href: string | null;
  thumbnail: string | null;
}

export interface BuilderData {
  /** null for a new dashboard. */
  dashboard: { owner: string; n: number } | null;
  filename: string;
  /** The client's content, parsed: `layout`, `version`, `settings` and whatever else it holds (kept as is). */
  content: { layout: TreeNode | null; settings: Record<string, unknown>; [key: string]: unknown };
  /** The owner sets sharing here; null for a write collaborator, who edits the boxes alone. */
  sharing: Visibility | null;
  /** The plots the boxes name, by fileId as the box gives it. */
  plots: Record<string, BuilderPlot>;
  csrf: string;
}

/** A problem with a save, at its field: `filename`, `title`, `sharing`, `content`, or a box (`box:<path key>`). */
export interface SaveProblem {
  field: string | null;
  message: string;
}

export interface SaveState {
  problems: SaveProblem[];
}

/** A page of the plots the builder offers to add. */
export interface PlotChoices {
  plots: (BuilderPlot & { owner: string; n: number })[];
  next: string | null;
  error?: string;
}
