import http from 'node:http';

/**
 * The fastest a Node client can go against the bench server: bare node:http, keep-alive, a fixed
 * number of requests in flight, no parsing, no storage. Paideia's own overhead is measured against
 * this, side by side, on the same machine and server. Prints requests per second.
 */
const [port, countArg, concurrencyArg] = process.argv.slice(2).map(Number);
const total = countArg!;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const body = JSON.stringify({ model: 'slow', messages: [{ role: 'user', content: 'x' }] });
let started = 0;
let done = 0;
const t0 = performance.now();
await new Promise<void>(resolve => {
  const one = () => {
    started++;
    const req = http.request({ port, path: '/v1/chat/completions', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, res => {
      res.resume();
      res.on('end', () => {
        done++;
        if (done === total) resolve();
        else if (started < total) one();
      });
    });
    req.end(body);
  };
  for (let i = 0; i < concurrencyArg!; i++) one();
});
process.stdout.write(JSON.stringify({ rate: total / ((performance.now() - t0) / 1000) }));
agent.destroy();
