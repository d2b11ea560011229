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
    nextLogin = ctx.query.account;
    ctx.body = 'ok';
    return;
  }
  if (ctx.path.startsWith('/interaction/')) {
    const amr = accounts[nextLogin]?.amr;
    const result = { login: { accountId: nextLogin, ...(amr ? { amr } : {}) } };
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, result));
    return;
  }
  await next();
});

provider.listen(Number(port), '127.0.0.1', () => {
  console.log(`listening ${issuer}`);
});
