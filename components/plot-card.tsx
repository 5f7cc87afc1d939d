// One plot in a list (gallery, feed, profile). Plain and presentational so that the server renders
// the first page and the client renders the pages "Load more" appends with the very same markup.
import { VISIBILITY_LABEL, visibilityHint } from '@/lib/shared/sharing';
import type { PlotCardData } from '@/lib/web/plot-cards';
import PlotPreview from './plot-preview';

const count = new Intl.NumberFormat('en-US');

/** `priority`: the card is on the list's first row (its image loads first). */
export function PlotCard({ card, priority = false }: { card: PlotCardData; priority?: boolean }) {
  return (
    <article className="plot-card" data-fid={card.fid} data-live={card.live}>
      <PlotPreview contentUrl={card.contentUrl} image={card.image} title={card.title} live={card.live} bundle={card.bundle} priority={priority} />
      <div className="plot-card-body">
        <h2 className="plot-card-title">
          <a href={card.href}>{card.title}</a>
        </h2>
        {card.visibility !== 'public' && (
          <p className={`badge badge-${card.visibility}`} title={visibilityHint(card.visibility, { noun: 'plot' })}>
            {VISIBILITY_LABEL[card.visibility]}
          </p>
        )}
        <p className="plot-card-meta">
          <a className="plot-card-owner" href={card.ownerHref}>
            <img src={card.avatar} alt="" width={20} height={20} />
            <span className="sr-only">by </span>
            {card.owner}
          </a>
          <span className="views" data-views={card.views}>
            {count.format(card.views)} {card.views === 1 ? 'view' : 'views'}
          </span>
          <time dateTime={card.created} title={new Date(card.created).toUTCString()}>
            {card.age}
          </time>
        </p>
        <ul className="trace-types" aria-label="Trace types">
          {card.traceTypes.map((type) => (
            <li key={type}>{type}</li>
          ))}
        </ul>
      </div>
    </article>
  );
}
