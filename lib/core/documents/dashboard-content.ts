// The content of dashboards and spectacle presentations, pure (no database): the JSON text their
// clients send (Python's dashboard_objs and presentation_objs, the web's builder), its format as zod
// schemas (which also make the documented JSON Schema of `GET /v2/dashboards/schema`), and the plots
// it names. The text is stored and answered exactly as sent: parsing only checks it and
// gives the pages a typed tree. Unknown keys are kept (clients store their own settings there). Its
// limits are the builder's too (lib/shared/limits.ts).
import { z } from 'zod';
import { ApiError, invalid } from '../errors';
import { parseJsonText, parseWith } from '../json-text';
import { siteFileOf } from '@/lib/shared/urls';
import { parseFid } from '../records';
import { CONTENT_LIMITS } from '@/lib/shared/limits';
import { isSlideImageData } from '@/lib/shared/deck';

const L = CONTENT_LIMITS;
const text = (max: number) => z.string().max(max, `at most ${max} characters`);

/** `owner:n`, the fid of a plot. */
const fileIdSchema = z
  .string()
  .max(80)
  .refine((s) => parseFid(s) !== null, 'must be a plot\'s fid, "owner:n"')
  .meta({ description: 'the plot\'s fid, "owner:n"' });

const shareKeySchema = text(200).nullable().optional().meta({ description: "a secret plot's share key: lets the dashboard's readers see that plot" });

const plotBox = z.looseObject({
  type: z.literal('box'),
  boxType: z.literal('plot'),
  fileId: fileIdSchema,
  shareKey: shareKeySchema,
  title: text(L.title).optional(),
});
const emptyBox = z.looseObject({ type: z.literal('box'), boxType: z.literal('empty'), title: text(L.title).optional() });
const textBox = z.looseObject({
  type: z.literal('box'),
  boxType: z.literal('text'),
  text: text(L.text).meta({ description: 'plain text (shown as written, never as HTML)' }),
  title: text(L.title).optional(),
});
const boxSchema = z.discriminatedUnion('boxType', [plotBox, emptyBox, textBox]);

export type PlotBox = z.output<typeof plotBox>;
export type TextBox = z.output<typeof textBox>;
export type DashboardBox = z.output<typeof boxSchema>;
export interface DashboardSplit {
  type: 'split';
  direction: 'vertical' | 'horizontal';
  size: number;
  sizeUnit: 'px' | '%';
  first: DashboardNode;
  second: DashboardNode;
  [key: string]: unknown;
}
export type DashboardNode = DashboardSplit | DashboardBox;

const splitSchema = z.looseObject({
  type: z.literal('split'),
  direction: z.enum(['vertical', 'horizontal']).meta({ description: 'vertical: `first` above `second`; horizontal: `first` left of `second`' }),
  size: z.number().min(0).max(1_000_000).meta({ description: "`first`'s share of the split (`%`), or its size in pixels (`px`)" }),
  sizeUnit: z.enum(['px', '%']),
  get first(): z.ZodType<DashboardNode> {
    return nodeSchema;
  },
  get second(): z.ZodType<DashboardNode> {
    return nodeSchema;
  },
});
const nodeSchema: z.ZodType<DashboardNode> = z.discriminatedUnion('type', [splitSchema, boxSchema]) as z.ZodType<DashboardNode>;

export const dashboardContentSchema = z.looseObject({
  layout: nodeSchema.nullable().meta({ description: 'the tree of splits and boxes; null: an empty dashboard' }),
  version: z.number().optional(),
  settings: z.looseObject({}).optional().meta({ description: "the client's settings, kept as sent" }),
});
export type DashboardContent = z.output<typeof dashboardContentSchema>;

const styleSchema = z
  .record(z.string().max(100), z.union([z.string().max(L.style), z.number(), z.boolean(), z.null()]))
  .meta({ description: 'CSS properties (camelCase), in a 1024x768 slide' });
const childBase = { id: z.string().max(200).optional() };
const childProps = <S extends z.ZodRawShape>(shape: S) => z.looseObject({ style: styleSchema.optional(), ...shape });
const textChild = z.looseObject({
  ...childBase,
  type: z.literal('Text'),
  children: z.array(text(L.line)).max(1000).meta({ description: 'its lines' }),
  props: childProps({}),
});
const imageChild = z.looseObject({
  ...childBase,
  type: z.literal('Image'),
  props: childProps({
    src: z.union([text(L.url), z.string().refine(isSlideImageData, 'an address, or an image as a base64 data: URL (PNG, JPEG, GIF or WebP)')]).meta({
      description: `an address (drawn only when on this site), or the image itself as a base64 \`data:\` URL of a PNG, JPEG, GIF or WebP of at most ${L.image} characters`,
    }),
    alt: text(L.line).optional(),
  }),
});
const plotlyChild = z.looseObject({
  ...childBase,
  type: z.literal('Plotly'),
  props: childProps({ src: text(L.url).meta({ description: "a plot's web URL + `.embed?link=false`, or its secret link" }) }),
});
const codeChild = z.looseObject({
  ...childBase,
  type: z.literal('CodePane'),
  props: childProps({ source: text(L.source), language: z.string().max(100).optional() }),
});
const slideChildSchema = z.discriminatedUnion('type', [textChild, imageChild, plotlyChild, codeChild]);
export type SlideChild = z.output<typeof slideChildSchema>;

const slideSchema = z.looseObject({
  id: z.string().max(200).optional(),
  children: z.array(slideChildSchema).max(L.slideChildren, `at most ${L.slideChildren} children on a slide`),
  props: z.looseObject({ style: styleSchema.optional(), transition: z.array(z.string().max(100)).max(10).optional() }).optional(),
});
export type Slide = z.output<typeof slideSchema>;

export const presentationContentSchema = z.looseObject({
  presentation: z.looseObject({
    slides: z.array(slideSchema).max(L.slides, `at most ${L.slides} slides`),
    version: z.string().max(100).optional(),
  }),
});
export type PresentationContent = z.output<typeof presentationContentSchema>;

/** The content text's JSON value, or the 400 naming `content`: not JSON, too large, or not an object. */
function contentValue(textValue: string): Record<string, unknown> {
  const bytes = new TextEncoder().encode(textValue).length;
  if (bytes > L.bytes) throw invalid('content', `at most 1 MiB (${L.bytes} bytes) of content; this is ${bytes} bytes`);
  let value: unknown;
  try {
    value = parseJsonText(textValue, 'the content');
  } catch (error) {
    if (error instanceof ApiError) throw invalid('content', `must be a string holding JSON (${error.message})`);
    throw error;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('content', 'must be a string holding a JSON object');
  return value as Record<string, unknown>;
}

/** A dashboard's content text, checked (400 naming `content` or the path inside it, e.g. `content.layout.first.fileId`). */
export function parseDashboardContent(textValue: string): DashboardContent {
  const content = parseWith(dashboardContentSchema, contentValue(textValue), 'content');
  const boxes = [...boxesOf(content.layout)];
  if (boxes.length > L.boxes) throw invalid('content.layout', `at most ${L.boxes} boxes in a dashboard`);
  if (boxes.filter(({ box }) => box.boxType === 'plot').length > L.plots) throw invalid('content.layout', `at most ${L.plots} plots in a dashboard`);
  return content;
}

/** A presentation's content text, checked likewise (e.g. `content.presentation.slides[0].children[1].props.src`). */
export function parsePresentationContent(textValue: string): PresentationContent {
  const content = parseWith(presentationContentSchema, contentValue(textValue), 'content');
  const plots = content.presentation.slides.reduce((sum, slide) => sum + slide.children.filter((c) => c.type === 'Plotly').length, 0);
  if (plots > L.plots) throw invalid('content.presentation.slides', `at most ${L.plots} plots in a presentation`);
  return content;
}

/** Every box of a dashboard's layout with its JSON path, in reading order (first before second). */
export function* boxesOf(node: DashboardNode | null, path = 'content.layout'): Generator<{ box: DashboardBox; path: string }> {
  if (!node) return;
  if (node.type === 'split') {
    yield* boxesOf(node.first, `${path}.first`);
    yield* boxesOf(node.second, `${path}.second`);
  } else {
    yield { box: node, path };
  }
}

/** A plot a document names: its fid as written, the share key given with it, and where (the JSON path of the field naming it). */
export interface PlotRef {
  fileId: string;
  shareKey: string | null;
  path: string;
}

/** The plots a dashboard's plot boxes name. */
export function plotRefsOfDashboard(content: DashboardContent): PlotRef[] {
  const refs: PlotRef[] = [];
  for (const { box, path } of boxesOf(content.layout)) {
    if (box.boxType === 'plot') refs.push({ fileId: box.fileId, shareKey: box.shareKey ?? null, path: `${path}.fileId` });
  }
  return refs;
}

/**
 * The plot a slide's Plotly `src` names when it is a page or embed of this site's in any form
 * (siteFileOf), else null (another site's, or not a plot's page).
 */
export function plotRefOfSrc(src: string, origin: string): { fileId: string; shareKey: string | null } | null {
  const file = siteFileOf(src, origin);
  const fid = file && (file.form === 'page' || file.form === 'embed') ? parseFid(`${file.owner}:${file.n}`) : null;
  return fid ? { fileId: `${fid.owner}:${fid.n}`, shareKey: file!.shareKey } : null;
}

/** The plots of this origin that a presentation's Plotly children show. */
export function plotRefsOfPresentation(content: PresentationContent, origin: string): PlotRef[] {
  const refs: PlotRef[] = [];
  content.presentation.slides.forEach((slide, s) => {
    slide.children.forEach((child, c) => {
      const ref = child.type === 'Plotly' ? plotRefOfSrc(child.props.src, origin) : null;
      if (ref) refs.push({ ...ref, path: `content.presentation.slides[${s}].children[${c}].props.src` });
    });
  });
  return refs;
}

/** The content format as a JSON Schema document (`GET /v2/dashboards/schema`, `/v2/spectacle-presentations/schema`). */
export function contentJsonSchema(kind: 'dashboard' | 'spectacle_presentation') {
  const schema = kind === 'dashboard' ? dashboardContentSchema : presentationContentSchema;
  return {
    ...z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }),
    title: kind === 'dashboard' ? 'Dashboard content' : 'Spectacle presentation content',
    description: `The JSON object that \`content\` holds as a string. Limits: ${L.bytes} bytes of content, ${
      kind === 'dashboard' ? `${L.boxes} boxes, nesting at most 100 levels deep` : `${L.slides} slides of at most ${L.slideChildren} children each`
    }, ${L.plots} plots; a plot must exist and its saver must be able to read it.`,
  };
}
