// autocannon's `requests` for a workload: each request is the workload's next variant (method,
// path, the subject's test-ID header, a JSON body), and each response is checked against it
// (status and exact body); `counters` keeps how many were checked and wrong, and the first wrong one.
// bench/run.js and bench/lib/load-once.js measure load with it.

/** @param {{ variant(i: number): any }} spec @param {string} header @param {{ next: number, checked: number, bad: number, badSample?: unknown }} counters */
export function checkedRequests(spec, header, counters) {
  return [
    {
      setupRequest: (req, ctx) => {
        const v = spec.variant(counters.next++);
        ctx.v = v;
        req.method = v.method;
        req.path = v.path;
        req.headers = { [header]: v.testId };
        if (v.body !== undefined) {
          req.headers['content-type'] = 'application/json';
          req.body = v.body;
        } else req.body = undefined;
        return req;
      },
      onResponse: (status, body, ctx) => {
        counters.checked++;
        if (!ctx.v || !ctx.v.check(status, body)) {
          counters.bad++;
          if (!counters.badSample) counters.badSample = { status, body: String(body).slice(0, 300), expected: ctx.v?.expect };
        }
      },
    },
  ];
}
