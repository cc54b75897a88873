import { createServer } from 'node:http';

/** An OpenAI-compatible server that answers every chat completion after a fixed delay (bench only). */
const delayMs = Number(process.argv[2] ?? 50);
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
const server = createServer((req, res) => {
  const deadline = performance.now() + delayMs;
  req.resume();
  req.on('end', () => {
    answerAt(deadline, () => {
      res.writeHead(200, headers);
      res.end(body);
    });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`${typeof a === 'object' && a ? a.port : 0}\n`);
});
