import { useEffect, useId, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import type { WaveSurferOptions } from 'wavesurfer.js';
import { Button } from '../../components/Button.tsx';
import { cssVar } from '../../components/themeColors.ts';
import { formatClock } from './callFormat.ts';
import { Labelled } from './Labelled.tsx';
import waveformCss from './waveform.css?url';

const SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;
const STEP_SECONDS = 5;

/**
 * Creates the waveform in a detached element, swaps the inline <style> wavesurfer.js writes into
 * its shadow root (refused by the CSP, style-src 'self', which left the layout unstyled: an inner
 * scrollbar, the played part drawn beside the waveform) for a link to waveform.css, and only then
 * puts it on the page. A <style> is checked against the CSP when it is connected, so the refused
 * one never is and no violation is reported.
 */
function createWaveform(container: HTMLElement, options: Omit<WaveSurferOptions, 'container'>): WaveSurfer {
  const host = document.createElement('div');
  host.className = 'audio-wave-host';
  const surfer = WaveSurfer.create({ ...options, container: host });
  const root = surfer.getWrapper().getRootNode();
  if (root instanceof ShadowRoot) {
    for (const style of root.querySelectorAll('style')) style.remove();
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL(waveformCss, document.baseURI).href;
    root.prepend(link);
  }
  container.replaceChildren(host);
  return surfer;
}

/**
 * A recording saved on this computer, played with wavesurfer.js: waveform (click or drag to seek),
 * Play/Pause, 5 s back/forward, a position slider for the keyboard, and speed. Our own <audio>
 * element is handed to wavesurfer so the page (and tests) can read its state.
 */
export function AudioPlayer({ url, label }: { url: string; label: string }) {
  const id = useId();
  const waveRef = useRef<HTMLDivElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const surferRef = useRef<WaveSurfer | null>(null);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(1);

  useEffect(() => {
    const container = waveRef.current;
    const media = audioRef.current;
    if (!container || !media) return;
    setReady(false);
    setError(null);
    setTime(0);
    const surfer = createWaveform(container, {
      media,
      url,
      height: 72,
      waveColor: cssVar('--text-faint'),
      progressColor: cssVar('--accent'),
      cursorColor: cssVar('--text'),
      barWidth: 2,
      barGap: 1,
      normalize: true,
      dragToSeek: true,
      hideScrollbar: true,
    });
    surferRef.current = surfer;
    const offs = [
      surfer.on('ready', (d) => {
        setDuration(d);
        setReady(true);
      }),
      surfer.on('play', () => setPlaying(true)),
      surfer.on('pause', () => setPlaying(false)),
      surfer.on('finish', () => setPlaying(false)),
      surfer.on('timeupdate', (t) => setTime(t)),
      surfer.on('error', (e) => setError(`The recording could not be played: ${e.message}`)),
    ];
    return () => {
      for (const off of offs) off();
      surfer.destroy();
      surferRef.current = null;
    };
  }, [url]);

  useEffect(() => {
    surferRef.current?.setPlaybackRate(speed, true);
  }, [speed, ready]);

  const seek = (seconds: number) => {
    const surfer = surferRef.current;
    if (!surfer) return;
    surfer.setTime(Math.max(0, Math.min(duration, seconds)));
  };

  return (
    <div className="audio-player" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="audio-label">
        {label}
      </p>
      {/* The waveform is a mouse shortcut; the slider below does the same from the keyboard. */}
      <div ref={waveRef} className="audio-wave" aria-hidden="true" />
      <audio ref={audioRef} preload="auto" data-testid="call-audio" />
      <div className="audio-controls">
        <Button
          variant="primary"
          size="sm"
          disabled={!ready}
          onClick={() => void surferRef.current?.playPause()}
        >
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Button size="sm" disabled={!ready} onClick={() => seek(time - STEP_SECONDS)}>
          Back 5 s
        </Button>
        <Button size="sm" disabled={!ready} onClick={() => seek(time + STEP_SECONDS)}>
          Forward 5 s
        </Button>
        <Labelled className="audio-position" label="Position">
          {(id) => (
            <input
              id={id}
              type="range"
              min={0}
              max={Math.max(0, duration)}
              step={1}
              value={Math.min(time, duration)}
              disabled={!ready}
              aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
              onChange={(e) => seek(Number(e.target.value))}
            />
          )}
        </Labelled>
        <span className="audio-time mono" data-testid="audio-time">
          {formatClock(time)} / {formatClock(duration)}
        </span>
        <Labelled className="audio-speed" label="Speed">
          {(id) => (
            <select
              id={id}
              className="select"
              value={speed}
              onChange={(e) => setSpeed(Number(e.target.value))}
            >
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}×
                </option>
              ))}
            </select>
          )}
        </Labelled>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : !ready ? (
        <p className="muted" role="status">
          Loading the recording…
        </p>
      ) : null}
    </div>
  );
}
