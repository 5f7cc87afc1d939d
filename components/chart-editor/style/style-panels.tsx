'use client';
// Placeholder until the style panels land (another branch owns this file): the contract only.
import type { JSX } from 'react';

export interface FigureLike {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}
export type Change = (path: string, value: unknown) => void;

export function LayoutStylePanels(_props: { figure: FigureLike; onChange: Change }): JSX.Element {
  return <div hidden />;
}

export function TraceStylePanel(_props: { figure: FigureLike; index: number; onChange: Change }): JSX.Element {
  return <div hidden />;
}
