'use server';
// The chart editor's expert view: checks an edited figure under the API's rules, writing nothing.
import { checkEditorFigure, type FigureCheck } from '@/lib/web/chart-editor';

export async function checkFigureAction(form: FormData): Promise<FigureCheck> {
  return checkEditorFigure(form);
}
