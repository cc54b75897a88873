import { createServer } from 'node:http';

/** An OpenAI-compatible server that answers every chat completion after a fixed delay (bench only). */
const delayMs = Number(process.argv[2] ?? 50);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        id: 'x', object: 'chat.completion', model: 'slow',
        choices: [{ index: 0, message: { role: 'assistant', content: 'focail' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 },
      }));
    }, delayMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`${typeof a === 'object' && a ? a.port : 0}\n`);
});
