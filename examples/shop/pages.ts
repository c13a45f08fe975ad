/** The shop's HTML, kept apart from its routes. */

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · Demo shop</title>
<style>body{font:16px system-ui;margin:2rem auto;max-width:40rem}.badge{padding:.1rem .5rem;border-radius:1rem;background:#ddd}
.badge.premium{background:#c0d8ff}.badge.gold{background:gold}.error{color:#b00020}</style></head>
<body><nav><a href="/">Home</a> · <a href="/checkout">Checkout</a> · <a href="/orders/1001">Order 1001</a></nav>
<main>${body}</main></body></html>`;
}

export function homePage(user: { name: string; tier: string } | { error: string }): string {
  if ('error' in user) return layout('Home', `<h1>Welcome</h1><p class="error" data-testid="user-error">${escape(user.error)}</p>`);
  return layout(
    'Home',
    `<h1>Welcome, <span data-testid="user-name">${escape(user.name)}</span></h1>
<p>Membership: <span class="badge ${escape(user.tier)}" data-testid="tier">${escape(user.tier)}</span></p>`,
  );
}

export function checkoutPage(result?: { ok: boolean; message: string }): string {
  const outcome = result
    ? `<p class="${result.ok ? 'ok' : 'error'}" data-testid="payment-result">${escape(result.message)}</p>`
    : '';
  return layout(
    'Checkout',
    `<h1>Checkout</h1>${outcome}
<form method="post" action="/checkout"><label>Amount (cents) <input name="amount" value="2500" data-testid="amount"></label>
<button type="submit" data-testid="pay">Pay</button></form>`,
  );
}

export function orderPage(order: { id: string; status: string }): string {
  return layout('Order', `<h1>Order ${escape(order.id)}</h1><p>Status: <strong data-testid="order-status">${escape(order.status)}</strong></p>`);
}

/**
 * The store finder: the page itself calls third parties, as pages do with maps and feature-flag
 * SDKs. Each button makes one call from the browser (or, for "Who am I", through the shop's
 * server) and shows what came back, or why it failed.
 */
export function storesPage(apis: { maps: string; flags: string; users: string; weather: string }): string {
  const calls = {
    locate: `fetch('${apis.maps}/v1/geocode?q=Paris').then(async (r) => { const j = await r.json(); return j.city + ' ' + j.lat + ',' + j.lng; })`,
    // A JSON POST with a custom header: a CORS preflight first, as with a real flags SDK.
    flags: `fetch('${apis.flags}/v1/evaluate', { method: 'POST', headers: { 'content-type': 'application/json', 'x-client': 'shop' }, body: JSON.stringify({ user: 'ada', flags: ['newCheckout'] }) }).then(async (r) => JSON.stringify(await r.json()) + ' v' + r.headers.get('x-flags-version'))`,
    'me-server': `fetch('/api/me').then(async (r) => { const j = await r.json(); return j.name + ' (' + j.tier + ')'; })`,
    'me-browser': `fetch('${apis.users}/me').then(async (r) => { const j = await r.json(); return j.name + ' (' + j.tier + ')'; })`,
    weather: `fetch('${apis.weather}/today').then((r) => r.text())`,
  };
  const buttons = Object.keys(calls).map((name) => `<p><button data-testid="${name}">${name}</button> <output data-testid="${name}-result"></output></p>`).join('');
  const script = Object.entries(calls)
    .map(([name, call]) => `document.querySelector('[data-testid="${name}"]').onclick = () => ${call}.then((text) => show('${name}', text), (error) => show('${name}', 'failed: ' + error.message));`)
    .join('\n');
  return layout(
    'Stores',
    `<h1>Find a store</h1>${buttons}
<script>
const show = (name, text) => { document.querySelector('[data-testid="' + name + '-result"]').textContent = text; };
${script}
</script>`,
  );
}
