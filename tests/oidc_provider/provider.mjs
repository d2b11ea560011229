// A local OpenID Connect provider for tests/e2e/test_oidc.py (npm oidc-provider).
// argv: port, client_id, client_secret, redirect_uri, and a JSON map of accounts:
// {"<login>": {"email": ..., "email_verified": ..., "amr": [...]}}.
// Its sign-in page is the test's: POST /test/next-login?account=<login> names who the
// next interaction signs in, with that account's amr (how the provider says they did).
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri, accountsJson] = process.argv.slice(2);
const accounts = JSON.parse(accountsJson);
const issuer = `http://127.0.0.1:${port}`;
let nextLogin = null;

const provider = new Provider(issuer, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  pkce: { required: () => true },
  claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'] },
  // ID tokens carry the claims themselves (no userinfo call needed).
  conformIdTokenClaims: false,
  async findAccount(ctx, id) {
    const found = accounts[id];
    if (!found) return undefined;
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: found.email, email_verified: found.email_verified };
      },
    };
  },
  async loadExistingGrant(ctx) {
    // No consent page: every client gets openid and email.
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email');
    await grant.save();
    return grant;
  },
});

provider.use(async (ctx, next) => {
  if (ctx.path === '/test/next-login' && ctx.method === 'POST') {
    nextLogin = ctx.query.account || null; // none: people choose on the sign-in page
    ctx.body = 'ok';
    return;
  }
  if (ctx.path.startsWith('/interaction/')) {
    const chosen = nextLogin ?? (ctx.method === 'POST' ? await chosenAccount(ctx) : null);
    if (!chosen) {
      ctx.type = 'html';
      ctx.body = signInPage(ctx.path.split('/')[2]);
      return;
    }
    const amr = accounts[chosen]?.amr;
    const result = { login: { accountId: chosen, ...(amr ? { amr } : {}) } };
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result));
    return;
  }
  await next();
});

// The demo's sign-in page (scripts/run --sso): pick one of the accounts; no password,
// as a stand-in for the State's real identity provider.
async function chosenAccount(ctx) {
  let raw = '';
  for await (const part of ctx.req) raw += part;
  const account = new URLSearchParams(raw).get('account');
  return account && accounts[account] ? account : null;
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function signInPage(uid) {
  const buttons = Object.entries(accounts).map(([login, a]) =>
    `<li><button name="account" value="${escape(login)}">${escape(a.email)}</button></li>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Local identity provider</title></head><body>
<h1>Local identity provider (demo)</h1>
<p>Sign in to the market as:</p>
<form method="post" action="/interaction/${escape(uid)}/login"><ul>${buttons.join('')}</ul></form>
</body></html>`;
}

provider.listen(Number(port), '127.0.0.1', () => {
  console.log(`listening ${issuer}`);
});
