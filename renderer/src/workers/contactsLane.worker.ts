/// <reference lib="webworker" />
// A lane worker: waits for the port the coordinator talks through, then runs the lane handler.
import type { LaneRequest } from './importMessages.ts';
import { createLaneHandler } from './laneHandler.ts';

self.onmessage = (event: MessageEvent<{ type: 'connect'; port: MessagePort }>) => {
  const { port } = event.data;
  const handle = createLaneHandler((message, transfer) => port.postMessage(message, transfer));
  port.onmessage = (e: MessageEvent<LaneRequest>) => handle(e.data);
};
