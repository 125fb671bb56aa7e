// After a connected call ends, its post-call steps on the virtual clock: the recording is written,
// then the platform's and the client's analyses are stored, then all processing is done; each
// step sends its webhook event.
import type { SandboxContext } from '../context.ts';
import { createRng } from '../rng.ts';
import type { callEventQueue } from './callEvents.ts';
import type { dialerStatements } from './dialerStatements.ts';
import type { Emit, PostStep } from './engineState.ts';
import { createRecordingWriter } from './recording.ts';

export function postCallSteps(
  ctx: SandboxContext,
  updAnalysis: ReturnType<typeof dialerStatements>['updAnalysis'],
  callEvent: ReturnType<typeof callEventQueue>['callEvent'],
): (step: PostStep, out: Emit[]) => void {
  const seed = ctx.options.seed;
  const recordings = createRecordingWriter(ctx);
  return function runPostStep(step: PostStep, out: Emit[]): void {
    const c = step.call;
    const { row, facts } = c;
    const at = step.at;
    switch (step.kind) {
      case 'recording': {
        const rec = recordings.write(createRng(`${seed}:rec:${row.id}:${c.attempt}`), {
          callId: row.id,
          turns: c.turns,
          durationSeconds: c.plan.talkSeconds,
          endedAtMs: c.endedAt,
          nowMs: at,
        });
        facts.recordingUrl = rec.url;
        facts.recordingDuration = c.plan.talkSeconds;
        callEvent(out, 'recording_completed', row, facts, at);
        return;
      }
      case 'platform':
        facts.platformAnalysis = { ...c.analysis.platform };
        updAnalysis.run(JSON.stringify({ platform_analysis: facts.platformAnalysis }), at, row.id);
        callEvent(out, 'platform_analysis_completed', row, facts, at);
        return;
      case 'client':
        facts.clientAnalysis = { ...c.analysis.client };
        updAnalysis.run(
          JSON.stringify({
            platform_analysis: facts.platformAnalysis,
            client_analysis: facts.clientAnalysis,
          }),
          at,
          row.id,
        );
        callEvent(out, 'client_analysis_completed', row, facts, at);
        return;
      case 'all':
        callEvent(out, 'all_processing_completed', row, facts, at);
        return;
    }
  };
}
