// Workload definitions shared by the parent (load generator, checks) and the
// child processes (subjects). Everything here is deterministic, so parent and
// child build identical data from the workload name alone.
//
// A workload is described in a neutral form:
//   scenarios: [{ id, mocks: [{ method, path, matchBody?, body }] }]
//   switches:  [{ testId, scenarioId }]   done over HTTP before timing
//   variant(c) -> one inbound request (the c-th, round-robin), with its check
// Every subject adapter (scenario-harness, Scenarist, MSW, upstream, limit)
// translates that same description into its own configuration.

export const MOCK_ORIGIN = 'https://api.bench.test';

export const HARNESS_HEADER = 'x-harness-test-id';
export const SCENARIST_HEADER = 'x-scenarist-test-id';

export const pad = (n) => String(n).padStart(4, '0');
export const scenarioId = (k) => `s${pad(k)}`;
export const itemId = (k) => `i${pad(k)}`;
export const testIdOf = (k) => `t${pad(k)}`;
export const skuOf = (k) => `sku-${pad(k)}`;

export const itemBody = (sid, iid) => ({ id: iid, name: `Item ${iid}`, price: 9.99, scenario: sid });
export const priceBody = (sid, sku) => ({ sku, price: 12.5, currency: 'EUR', scenario: sid });

/** Names of all workloads that go through the load generator (W5 and micro are separate). */
export const LOAD_WORKLOADS = ['W1', 'W2-10', 'W2-100', 'W2-1000', 'W3', 'W3-own', 'W4', 'W6'];

export const W3_TEST_IDS = 1000;
export const W4_TEST_IDS = 1000;
/** W3-own: how many mocks of its own each W3 test ID is given over POST /__harness__/mocks. */
export const W3_OWN_MOCKS = 10;
export const W6_CANDIDATES = 100;

function itemScenario(sid, count) {
  const mocks = [];
  for (let k = 0; k < count; k++) {
    const iid = itemId(k);
    mocks.push({ method: 'GET', path: `/items/${iid}`, body: itemBody(sid, iid) });
  }
  return { id: sid, mocks };
}

function getItemVariant(testId, sid, iid) {
  const expect = JSON.stringify(itemBody(sid, iid));
  return {
    method: 'GET',
    path: `/items/${iid}`,
    testId,
    body: undefined,
    expect,
    check: (status, body) => status === 200 && body === expect,
  };
}

/**
 * @param {string} name one of LOAD_WORKLOADS
 */
export function buildWorkload(name) {
  if (name === 'W1') {
    const sid = scenarioId(0);
    const v = getItemVariant(testIdOf(0), sid, itemId(0));
    return {
      name,
      title: 'W1 one scenario, one mock, one test ID',
      kind: 'app',
      scenarios: [itemScenario(sid, 1)],
      switches: [{ testId: testIdOf(0), scenarioId: sid }],
      variantCount: 1,
      variant: () => v,
    };
  }
  if (name.startsWith('W2-')) {
    const n = Number(name.slice(3));
    const sid = scenarioId(0);
    // requests hit the last-defined mock
    const v = getItemVariant(testIdOf(0), sid, itemId(n - 1));
    return {
      name,
      title: `W2 active scenario with ${n} mocks, hit the last one`,
      kind: 'app',
      mocks: n,
      scenarios: [itemScenario(sid, n)],
      switches: [{ testId: testIdOf(0), scenarioId: sid }],
      variantCount: 1,
      variant: () => v,
    };
  }
  if (name === 'W3') {
    const scenarios = [];
    const switches = [];
    const variants = [];
    for (let k = 0; k < W3_TEST_IDS; k++) {
      const sid = scenarioId(k);
      // each test ID has its own scenario; same URL, body says which scenario answered
      scenarios.push(itemScenario(sid, 1));
      switches.push({ testId: testIdOf(k), scenarioId: sid });
      variants.push(getItemVariant(testIdOf(k), sid, itemId(0)));
    }
    return {
      name,
      title: `W3 ${W3_TEST_IDS} live test IDs, own scenario each, round-robin`,
      kind: 'app',
      scenarios,
      switches,
      variantCount: variants.length,
      variant: (c) => variants[c % variants.length],
    };
  }
  if (name === 'W3-own') {
    // W3, and each test ID also has W3_OWN_MOCKS mocks of its own (issue 25): on distinct
    // paths, and the request hits the last one added, so every own mock is looked at first.
    const w3 = buildWorkload('W3');
    const testMocks = [];
    const variants = [];
    for (let k = 0; k < W3_TEST_IDS; k++) {
      const own = `own-${pad(k)}`;
      const mocks = [];
      for (let m = 0; m < W3_OWN_MOCKS; m++) mocks.push({ method: 'GET', path: `/items/${itemId(m)}`, body: itemBody(own, itemId(m)) });
      testMocks.push({ testId: testIdOf(k), mocks });
      variants.push(getItemVariant(testIdOf(k), own, itemId(W3_OWN_MOCKS - 1)));
    }
    return {
      ...w3,
      name,
      title: `W3 with ${W3_OWN_MOCKS} own mocks per test ID (POST /__harness__/mocks), round-robin`,
      testMocks,
      variant: (c) => variants[c % variants.length],
    };
  }
  if (name === 'W4') {
    const scenarios = [itemScenario(scenarioId(0), 1), itemScenario(scenarioId(1), 1)];
    return {
      name,
      title: `W4 POST /__scenario__ switches, ${W4_TEST_IDS} rotating test IDs`,
      kind: 'switch',
      scenarios,
      switches: [],
      variantCount: W4_TEST_IDS * 2,
      variant: (c) => {
        const testId = `w4-${pad(c % W4_TEST_IDS)}`;
        const sid = scenarioId(Math.floor(c / W4_TEST_IDS) % 2);
        return {
          method: 'POST',
          path: '/__scenario__',
          testId,
          body: JSON.stringify({ scenario: sid }),
          expect: `{"success":true,"testId":"${testId}","scenarioId":"${sid}"}`,
          check: (status, body) => {
            if (status !== 200) return false;
            try {
              const j = JSON.parse(body);
              return j.success === true && j.testId === testId && j.scenarioId === sid;
            } catch {
              return false;
            }
          },
        };
      },
    };
  }
  if (name === 'W6') {
    const sid = scenarioId(0);
    const mocks = [];
    for (let k = 0; k < W6_CANDIDATES; k++) {
      const sku = skuOf(k);
      mocks.push({ method: 'POST', path: '/price', matchBody: { sku }, body: priceBody(sid, sku) });
    }
    // the request matches the last-defined candidate
    const sku = skuOf(W6_CANDIDATES - 1);
    const expect = JSON.stringify(priceBody(sid, sku));
    const v = {
      method: 'POST',
      path: '/price',
      testId: testIdOf(0),
      body: JSON.stringify({ sku, qty: 1 }),
      expect,
      check: (status, body) => status === 200 && body === expect,
    };
    return {
      name,
      title: `W6 body matching among ${W6_CANDIDATES} candidate mocks`,
      kind: 'app',
      scenarios: [{ id: sid, mocks }],
      switches: [{ testId: testIdOf(0), scenarioId: sid }],
      variantCount: 1,
      variant: () => v,
    };
  }
  throw new Error(`unknown workload ${name}`);
}

/** Key used by the Map-based subjects (limit, upstream) for a request. */
export function mapKey(method, path, sku) {
  return sku === undefined ? `${method} ${path}` : `${method} ${path} ${sku}`;
}

/** Map of request key -> response body object for the first scenario of a workload. */
export function answerMap(spec) {
  const m = new Map();
  const sc = spec.scenarios[0];
  for (const mock of sc.mocks) {
    m.set(mapKey(mock.method, mock.path, mock.matchBody?.sku), mock.body);
  }
  return m;
}
