// Which built-in theme a figure's layout.template is (lib/shared/figures/builtin-themes.ts).
import { THEMES } from '@/lib/shared/figures/builtin-themes';
import { isDeepStrictEqual } from './values';

/** The theme a layout.template is, 'custom' for one made elsewhere (plotly.py writes its own), kept until another is picked. */
export function themeOf(template: unknown): string {
  return THEMES.find((t) => (t.template === undefined ? template === undefined : isDeepStrictEqual(t.template, template)))?.key ?? 'custom';
}
