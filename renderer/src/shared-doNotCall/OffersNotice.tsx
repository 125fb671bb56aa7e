import { useEffect, useState } from 'react';
import type { SuppressionOffer } from '../../../shared/ipc/channels/suppression.ts';
import { useApp } from '../app/appStore.ts';
import { Button } from '../components/Button.tsx';
import { Dialog } from '../components/Dialog.tsx';
import { Notice } from '../components/Notice.tsx';
import { toast } from '../components/toastStore.ts';
import { desk } from '../desk/desk.ts';
import { formatCount } from '../components/format.ts';

/**
 * What the synced calls propose for the do-not-call list: calls the service skipped as
 * DND-registered (one click adds them all) and transcripts with an opt-out phrase (reviewed one by
 * one). Nothing is added without the operator.
 */
export function OffersNotice() {
  const activeId = useApp((s) => s.activeId);
  const [counts, setCounts] = useState({ dndSkipped: 0, optOutPhrases: 0 });
  const [review, setReview] = useState<SuppressionOffer[] | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void desk()
      .suppression.offers({})
      .then((r) => {
        if (live && r.ok) setCounts(r.value.counts);
      });
    const off = desk().on('suppression:changed', (e) => setCounts(e.counts));
    return () => {
      live = false;
      off();
    };
  }, [activeId]);

  const resolve = async (req: Parameters<ReturnType<typeof desk>['suppression']['resolveOffers']>[0]) => {
    setBusy(true);
    const r = await desk().suppression.resolveOffers(req);
    setBusy(false);
    if (!r.ok) {
      toast.error(r.error.message);
      return false;
    }
    setCounts(r.value.counts);
    return true;
  };
  const openReview = async () => {
    const r = await desk().suppression.offers({ kind: 'opt_out_phrase' });
    if (r.ok) setReview(r.value.offers);
  };

  if (counts.dndSkipped === 0 && counts.optOutPhrases === 0) return null;
  return (
    <>
      <Notice tone="info" title="Do-not-call suggestions from your calls" role="status">
        <div className="offers" data-testid="suppression-offers">
          {counts.dndSkipped > 0 ? (
            <p>
              <span data-testid="dnd-offer-count">{formatCount(counts.dndSkipped)}</span>{' '}
              {counts.dndSkipped === 1 ? 'number was' : 'numbers were'} skipped by the service as
              DND-registered.{' '}
              <Button
                size="sm"
                busy={busy}
                onClick={() =>
                  void resolve({ all: 'dnd_skipped', accept: true }).then(
                    (ok) => ok && toast.success('DND-registered numbers added to the do-not-call list'),
                  )
                }
              >
                Add {formatCount(counts.dndSkipped)} to the do-not-call list
              </Button>
            </p>
          ) : null}
          {counts.optOutPhrases > 0 ? (
            <p>
              <span data-testid="phrase-offer-count">{formatCount(counts.optOutPhrases)}</span>{' '}
              {counts.optOutPhrases === 1 ? 'customer' : 'customers'} asked not to be called again.{' '}
              <Button size="sm" aria-haspopup="dialog" onClick={() => void openReview()}>
                Review
              </Button>
            </p>
          ) : null}
        </div>
      </Notice>
      {review ? (
        <Dialog open title="Asked not to be called" onClose={() => setReview(null)}>
          <div className="dialog-body">
            {review.length === 0 ? <p>Nothing left to review.</p> : null}
            <ul className="offer-list">
              {review.map((o) => (
                <li key={o.id} data-offer={o.number}>
                  <p>
                    <strong className="mono">{o.number}</strong> said “{o.phrase}”
                  </p>
                  {o.excerpt ? <p className="muted">… {o.excerpt} …</p> : null}
                  <Button
                    size="sm"
                    busy={busy}
                    onClick={() =>
                      void resolve({ ids: [o.id], accept: true }).then(
                        (ok) => ok && setReview((l) => l?.filter((x) => x.id !== o.id) ?? null),
                      )
                    }
                  >
                    Add {o.number}
                  </Button>{' '}
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={busy}
                    onClick={() =>
                      void resolve({ ids: [o.id], accept: false }).then(
                        (ok) => ok && setReview((l) => l?.filter((x) => x.id !== o.id) ?? null),
                      )
                    }
                  >
                    Dismiss
                  </Button>
                </li>
              ))}
            </ul>
          </div>
          <div className="dialog-footer">
            <Button onClick={() => setReview(null)}>Close</Button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
