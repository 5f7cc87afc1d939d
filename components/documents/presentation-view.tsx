// A presentation's slides, shown one at a time by the slide deck: the first ones come with the page,
// the others are asked for as they are about to be shown (a deck of 500 slides is not one page).
import type { SlideView } from '@/lib/web/document-views';
import './documents.css';
import { SlideDeck } from './slide-deck';

export function PresentationView({
  count,
  slides,
  slidesUrl,
  label,
  presentable = false,
}: {
  count: number;
  slides: SlideView[];
  slidesUrl: string;
  label: string;
  /** Offers "Present" (the page; not an embed). */
  presentable?: boolean;
}) {
  return <SlideDeck label={label} count={count} initial={slides} slidesUrl={slidesUrl} presentable={presentable} />;
}
