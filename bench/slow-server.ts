import { createServer } from 'node:http';

/**
 * An OpenAI-compatible server that answers every chat completion after a fixed delay (bench only),
 * `slots` at a time (argv[3]; default unlimited) as a model server with a fixed batch does: the
 * rest wait their turn. `GET /stats` says how busy it was since the last ask, so a bench can tell
 * whether the server or the client was the limit.
 */
const delayMs = Number(process.argv[2] ?? 50);
const slots = Number(process.argv[3] ?? Infinity);
// One body for every answer: the server should cost as little as possible, so the figure measures the client.
const body = Buffer.from(JSON.stringify({
  id: 'x', object: 'chat.completion', model: 'slow',
  choices: [{ index: 0, message: { role: 'assistant', content: 'focail' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 },
}));
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
// setTimeout(50) fires 1-3 ms late under load; a server that "answers after 50 ms" should answer
// at 50 ms, or the figure would charge the client for the server's timer. So: a timer to just
// before the deadline, then the last stretch on the event loop's check phase.
const answerAt = (deadline: number, send: () => void) => {
  const left = deadline - performance.now();
  if (left <= 0) return send();
  if (left > 2) setTimeout(() => answerAt(deadline, send), left - 2);
  else setImmediate(() => answerAt(deadline, send));
};
let inFlight = 0;
const waiting: Array<() => void> = [];
const stats = { requests: 0, maxInFlight: 0, maxWaiting: 0, fullMs: 0, since: performance.now() };
let fullSince: number | undefined;
const busy = (delta: number) => {
  inFlight += delta;
  stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
  const now = performance.now();
  if (inFlight >= slots && fullSince === undefined) fullSince = now;
  if (inFlight < slots && fullSince !== undefined) { stats.fullMs += now - fullSince; fullSince = undefined; }
};
const serve = (send: () => void, from = performance.now()) => {
  busy(1);
  answerAt(from + delayMs, () => {
    send();
    busy(-1);
    waiting.shift()?.();
  });
};
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    const now = performance.now();
    const fullMs = stats.fullMs + (fullSince !== undefined ? now - fullSince : 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ requests: stats.requests, maxInFlight: stats.maxInFlight, maxWaiting: stats.maxWaiting, fullShare: fullMs / Math.max(1, now - stats.since) }));
    Object.assign(stats, { requests: 0, maxInFlight: inFlight, maxWaiting: waiting.length, fullMs: 0, since: now });
    if (fullSince !== undefined) fullSince = now;
    return;
  }
  stats.requests++;
  const arrived = performance.now();
  req.resume();
  req.on('end', () => {
    const send = () => {
      res.writeHead(200, headers);
      res.end(body);
    };
    // The delay runs from arrival when a slot is free, from the slot's freeing when it waited.
    if (inFlight < slots) serve(send, arrived);
    else {
      waiting.push(() => serve(send));
      stats.maxWaiting = Math.max(stats.maxWaiting, waiting.length);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`${typeof a === 'object' && a ? a.port : 0}\n`);
});
