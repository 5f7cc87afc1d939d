// A dashboard's boxes as its split tree nests them: on a wide screen nested flex panes (horizontal
// splits side by side, vertical ones stacked, the first pane at its share or pixels), each pane as
// tall as the layout maths decided (lib/core/documents/dashboard-layout.ts); on a phone one column in reading
// order. Server-rendered; only the charts are client components.
import type { CSSProperties } from 'react';
import type { BoxView, DashboardLayout } from '@/lib/web/document-views';
import { LazyPlot } from './lazy-plot';
import './documents.css';

const paneStyle = (node: DashboardLayout, basis?: string) => ({ '--h': `${node.height}px`, ...(basis ? { '--basis': basis } : {}) }) as CSSProperties;

export function DashboardView({ layout, label }: { layout: DashboardLayout; label: string }) {
  return (
    <section className="dash" aria-label={label}>
      <Node node={layout} />
    </section>
  );
}

function Node({ node, basis }: { node: DashboardLayout; basis?: string }) {
  if (node.kind === 'box') return <Box box={node.box} path={node.path} style={paneStyle(node, basis)} />;
  return (
    <div className={`dash-split dash-${node.direction}`} style={paneStyle(node, basis)}>
      <Node node={node.first} basis={node.basis} />
      <Node node={node.second} />
    </div>
  );
}

/** A box's heading id: its place in the tree (unique on the page). */
const headingId = (path: string) => `dash-box-${path || 'root'}`;

function Box({ box, path, style }: { box: BoxView; path: string; style: CSSProperties }) {
  if (box.kind === 'empty') return <div className="dash-box dash-box-empty" style={style} />;
  if (box.kind === 'hidden') {
    return (
      <div className="dash-box dash-box-hidden" style={style}>
        <NotShared />
      </div>
    );
  }
  const title = box.title.trim();
  return (
    <section className={`dash-box dash-box-${box.kind}`} style={style} aria-labelledby={title ? headingId(path) : undefined}>
      {title && (
        <h2 className="dash-box-title" id={headingId(path)}>
          {box.kind === 'plot' ? <a href={box.plot.href}>{title}</a> : title}
        </h2>
      )}
      {box.kind === 'plot' ? <LazyPlot plot={box.plot} /> : <p className="dash-text">{box.text}</p>}
    </section>
  );
}

/** In place of a plot the viewer may not read: nothing of it, not even that it exists by name. */
export function NotShared() {
  return (
    <p className="doc-not-shared" role="note">
      This plot is not shared with you
    </p>
  );
}
