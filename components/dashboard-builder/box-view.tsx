'use client';
// The dashboard builder's canvas: the layout tree drawn as its splits say, each box with its drag
// handle (the pointer's way), its move and remove buttons (the keyboard's) and its fields.
import { CONTENT_LIMITS } from '@/lib/shared/limits';
import { type CSSProperties, type DragEvent, useState } from 'react';
import { type Direction, type Path, pathKey, type Side, type TreeBox, type TreeNode } from './tree';
import type { BuilderPlot, SaveProblem } from '@/lib/web/dashboard-builder';

const MOVES: { dir: Direction; arrow: string; word: string }[] = [
  { dir: 'left', arrow: '←', word: 'left' },
  { dir: 'up', arrow: '↑', word: 'up' },
  { dir: 'down', arrow: '↓', word: 'down' },
  { dir: 'right', arrow: '→', word: 'right' },
];

export interface NodeProps {
  node: TreeNode;
  path: Path;
  labels: Map<string, string>;
  plots: Record<string, BuilderPlot>;
  problems: SaveProblem[];
  canMove: (path: Path, dir: Direction) => boolean;
  onMove: (path: Path, dir: Direction) => void;
  onRemove: (path: Path) => void;
  onEdit: (path: Path, patch: Partial<TreeBox>) => void;
  onFocusBox: (key: string) => void;
  dragging: string | null;
  onDrag: (key: string | null) => void;
  onDrop: (from: string, to: string, side: Side | null) => void;
}

/** Where on a box a drop lands: its middle swaps the two (null); its edges put the dragged box on that side. */
function dropSide(e: DragEvent<HTMLElement>): Side | null {
  const r = e.currentTarget.getBoundingClientRect();
  const fx = (e.clientX - r.left) / r.width;
  const fy = (e.clientY - r.top) / r.height;
  return fx < 0.2 ? 'left' : fx > 0.8 ? 'right' : fy < 0.2 ? 'above' : fy > 0.8 ? 'below' : null;
}

/** A split as two panes (side by side, or one above the other) sized as it says, or a box. */
export function NodeView(props: NodeProps) {
  const { node, path } = props;
  if (node.type === 'box') return <BoxView {...props} box={node} />;
  const basis = node.sizeUnit === 'px' ? `${Math.min(95, Math.max(5, node.size / 10))}%` : `${node.size}%`;
  return (
    <div className={`dashboard-split dashboard-split-${node.direction === 'horizontal' ? 'row' : 'column'}`}>
      <div className="dashboard-pane" style={{ '--pane-basis': basis } as CSSProperties}>
        <NodeView {...props} node={node.first} path={[...path, 'first']} />
      </div>
      <div className="dashboard-pane dashboard-pane-rest">
        <NodeView {...props} node={node.second} path={[...path, 'second']} />
      </div>
    </div>
  );
}

function BoxView({
  box,
  path,
  labels,
  plots,
  problems,
  canMove,
  onMove,
  onRemove,
  onEdit,
  onFocusBox,
  dragging,
  onDrag,
  onDrop,
}: NodeProps & { box: TreeBox }) {
  const key = pathKey(path);
  const label = labels.get(key) ?? 'Box';
  const id = `box-${key.replace(/\./g, '-')}`;
  const problem = problems.find((p) => p.field === `box:${key}`)?.message;
  const plot = box.boxType === 'plot' && box.fileId ? plots[box.fileId] : undefined;
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dragging is the pointer's way; each box's move buttons are the keyboard's
    <div
      className={`dashboard-box${problem ? ' has-error' : ''}${over ? ' drop-over' : ''}${dragging === key ? ' is-dragging' : ''}`}
      data-path={key}
      data-box-type={box.boxType}
      data-title={box.title ?? ''}
      onFocus={() => onFocusBox(key)}
      onDragOver={(e) => {
        if (!dragging || dragging === key) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const from = dragging ?? e.dataTransfer.getData('text/plain');
        onDrag(null);
        if (from) onDrop(from, key, dropSide(e));
      }}
    >
      <div className="dashboard-box-head">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the pointer's handle; the move buttons beside it are the keyboard's way */}
        <span
          className="dashboard-drag"
          draggable
          title="Drag to move"
          onDragStart={(e) => {
            e.dataTransfer.setData('text/plain', key);
            e.dataTransfer.effectAllowed = 'move';
            onDrag(key);
          }}
          onDragEnd={() => onDrag(null)}
        >
          <span aria-hidden="true">⠿</span>
          <span className="dashboard-box-label">{label}</span>
        </span>
        <div className="dashboard-box-tools">
          {MOVES.map((m) => (
            <button
              key={m.dir}
              type="button"
              className="secondary icon-button"
              data-move={m.dir}
              disabled={!canMove(path, m.dir)}
              onClick={() => onMove(path, m.dir)}
              aria-label={`Move ${label} ${m.word}`}
              title={`Move ${m.word}`}
            >
              <span aria-hidden="true">{m.arrow}</span>
            </button>
          ))}
          <button type="button" className="secondary icon-button danger-text" onClick={() => onRemove(path)} aria-label={`Remove ${label}`} title="Remove">
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      </div>
      {box.boxType !== 'empty' && (
        <div className="dashboard-box-title">
          <label htmlFor={`${id}-title`}>Title of {label}</label>
          <input
            id={`${id}-title`}
            type="text"
            value={box.title ?? ''}
            maxLength={CONTENT_LIMITS.title}
            onChange={(e) => onEdit(path, { title: e.target.value })}
          />
        </div>
      )}
      {box.boxType === 'text' && (
        <div className="dashboard-box-text">
          <label htmlFor={`${id}-text`}>Text of {label}</label>
          <textarea id={`${id}-text`} value={box.text ?? ''} maxLength={CONTENT_LIMITS.text} onChange={(e) => onEdit(path, { text: e.target.value })} />
        </div>
      )}
      {box.boxType === 'plot' &&
        (plot?.readable ? (
          <div className="dashboard-box-plot">
            {plot.thumbnail && <img src={plot.thumbnail} alt="" loading="lazy" />}
            <span className="muted">{plot.href ? <a href={plot.href}>{plot.title || box.fileId}</a> : plot.title || box.fileId}</span>
          </div>
        ) : (
          <p className="dashboard-box-unreadable">{box.fileId ? `This plot (${box.fileId}) is not shared with you.` : 'This box names no plot.'}</p>
        ))}
      {box.boxType === 'empty' && <p className="muted">Empty box</p>}
      {problem && <p className="field-error">{problem}</p>}
    </div>
  );
}
