// A listed sale driven through the client openapi-typescript generates from
// /api/v1/openapi.json (schema.d.ts, written beside this file by tests/e2e/test_ts_client.py)
// and openapi-fetch, against a live server. Usage: node sale.js BASE_URL CERTIFICATE_ID LOG
// Every answer is appended to LOG (JSON) so the test checks it against the document too.
import { writeFileSync } from "node:fs";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type ErrorCode = components["schemas"]["Error"]["error"]["code"];
type Seen = { method: string; path: string; status: number; mimetype: string; body: unknown };

const [baseUrl, certificateId, logFile] = process.argv.slice(2) as [string, string, string];
const M = 100_000_000;
const seen: Seen[] = [];
const client = createClient<paths>({ baseUrl });
client.use({
  async onResponse({ request, response }) {
    const mimetype = (response.headers.get("content-type") ?? "").split(";")[0] ?? "";
    const body: unknown = mimetype === "application/json" ? await response.clone().json() : null;
    const path = new URL(request.url).pathname;
    seen.push({ method: request.method, path, status: response.status, mimetype, body });
    return response;
  },
});

function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

async function signIn(email: string): Promise<string> {
  const { data, error } = await client.POST("/api/v1/auth/token", {
    body: { email, password: "generated-password" },
  });
  if (!data?.token) throw new Error(`sign-in refused: ${JSON.stringify(error)}`);
  return data.token;
}

async function main(): Promise<void> {
  const seller = bearer(await signIn("seller@gen.test"));
  const buyer = bearer(await signIn("buyer@gen.test"));
  const eda = bearer(await signIn("eda@gen.test"));
  const listed = await client.POST("/api/v1/listings", {
    headers: seller,
    body: { certificate_id: certificateId, amount_cents: M, ask_cents: (90 * M) / 100 },
  });
  const listing = listed.data;
  if (!listing?.id || listing.status !== "open") throw new Error(JSON.stringify(listed.error));
  const page = await client.GET("/api/v1/listings", { headers: buyer });
  const ids = (page.data?.items ?? []).map((item) => item.id);
  if (ids.length !== 1 || ids[0] !== listing.id) throw new Error(`listings: ${ids}`);
  const offered = await client.POST("/api/v1/listings/{listing_id}/offers", {
    headers: buyer,
    params: { path: { listing_id: listing.id } },
    body: { amount_cents: M, price_cents: (85 * M) / 100 },
  });
  const offer = offered.data;
  if (!offer?.id || offer.status !== "open") throw new Error(JSON.stringify(offered.error));
  const accepted = await client.POST("/api/v1/offers/{offer_id}/accept", {
    headers: seller,
    params: { path: { offer_id: offer.id } },
    body: {},
  });
  const transferId = accepted.data?.transfer_id;
  if (!transferId) throw new Error(JSON.stringify(accepted.error));
  const approved = await client.POST("/api/v1/transfers/{transfer_id}/approve", {
    headers: eda,
    params: { path: { transfer_id: transferId } },
    body: {},
  });
  const transfer = approved.data;
  if (transfer?.status !== "approved" || !transfer.buyer_certificate_id) {
    throw new Error(JSON.stringify(approved.error));
  }
  const refused = await client.POST("/api/v1/listings/{listing_id}/offers", {
    headers: buyer,
    params: { path: { listing_id: listing.id } },
    body: { amount_cents: M, price_cents: M / 2 },
  });
  const code: ErrorCode | undefined = refused.error?.error.code; // the typed error shape
  if (!code) throw new Error("the second offer was not refused");
  writeFileSync(logFile, JSON.stringify(seen));
  console.log(JSON.stringify({ transfer: transfer.id, status: transfer.status, refused: code }));
}

main().catch((e: unknown) => {
  writeFileSync(logFile, JSON.stringify(seen));
  console.error(e);
  process.exit(1);
});
