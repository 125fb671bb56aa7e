import { upgradeLine } from '../../shared/domain/upgradeText.ts';
import { openDbClient } from '../services/db/client.ts';
import type { DbClient } from '../services/db/client.ts';
import type { MigrationProgress } from '../services/db/migrationProgress.ts';
import type { Io } from './io.ts';

/**
 * The CLI's line while the data folder's database is upgraded (openDbClient `onUpgrade`): on a
 * terminal one status line redrawn in place, otherwise one line per step on stderr (a log stays
 * short). `end()` clears the status line once the database is open (or failed).
 */
export function upgradeProgress(io: Pick<Io, 'err' | 'status' | 'interactive'>): {
  onUpgrade(progress: MigrationProgress): void;
  end(): void;
} {
  let lastStep = 0;
  let shown = false;
  return {
    onUpgrade(progress) {
      if (io.interactive) {
        shown = true;
        io.status(upgradeLine(progress));
      } else if (progress.step !== lastStep) io.err(upgradeLine({ ...progress, fraction: null }));
      lastStep = progress.step;
    },
    end() {
      if (shown) io.status(null);
      shown = false;
    },
  };
}

/** The data folder's database for a one-shot command (no read lane), its upgrade shown on `io`. */
export async function openCliDb(
  file: string,
  io: Pick<Io, 'err' | 'status' | 'interactive'>,
): Promise<DbClient> {
  const progress = upgradeProgress(io);
  try {
    return await openDbClient({ file, readLane: false, onUpgrade: progress.onUpgrade });
  } finally {
    progress.end();
  }
}
