// A bare node:http server answering every request with the same JSON body (read from a file), the
// raw loopback baseline for bench/sandbox.ts. Prints `listening <port>` when ready.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/lib/bareJsonServer.ts <body.json>');
  process.exit(2);
}
const body = readFileSync(file);
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
