import { listContextItems, renameContextItem } from "../db/queries/context";
import type { App } from "../db/schema";
import { ingestFile } from "../lib/context/files";
import { ingestText } from "../lib/context/items";
import { runDueJobs } from "../lib/jobs/worker";
import { ownerPlan } from "../lib/plans/owner-plan";
import { stopBoss } from "../lib/queue/boss";

// The Demo App's data sources for npm run db:seed: a text, a CSV item list and a PDF,
// added through the services the ingest routes call and ingested at once through the worker's
// handler, so a new user finds them Synced. Full-text search needs no model. Idempotent: a source
// the app already holds (by its name) is not added again.

const FAQ_NAME = "Product FAQ";
const CSV_NAME = "products.csv";
const PDF_NAME = "store-policies.pdf";
// How long to wait for a job that the dev server's own worker took before this process did.
const SYNC_WAIT_MS = 30_000;

const FAQ = `Northwind Outdoor: frequently asked questions

How long does delivery take?
Standard delivery takes 3 to 5 working days in the EU and 5 to 8 days elsewhere. Express delivery arrives the next working day when you order before 2 pm.

How much is shipping?
Shipping is free on orders over 60 EUR. Below that, standard shipping costs 4.90 EUR and express 9.90 EUR.

Can I return an item?
Yes: unused items can be returned within 30 days of delivery for a full refund. Print the return label from your account page; returns are free in the EU.

When do I get my refund?
Refunds are paid to the original payment method within 5 working days of the return reaching our warehouse.

Do your products have a warranty?
Every product has a 2-year warranty against manufacturing defects. Tents, backpacks and sleeping bags have 5 years.

How do I choose a sleeping bag?
Pick a comfort temperature 5 degrees below the coldest night you expect. Down is lighter and packs smaller; synthetic stays warm when damp.

Which payment methods do you accept?
Credit and debit cards, PayPal and bank transfer. Companies can pay by invoice within 30 days.

How can I reach support?
Write to support@northwind.example or use the chat on the site, Monday to Friday from 9 am to 6 pm (CET).
`;

// name, category, price (EUR), description
const PRODUCTS: [string, string, number, string][] = [
  [
    "Trailhead 2 tent",
    "Tents",
    249,
    "Two-person freestanding tent, 2.1 kg, sets up in five minutes, 3000 mm waterproof fly.",
  ],
  ["Summit 4 tent", "Tents", 449, "Four-season tent for two, aluminium poles, snow skirts, 3.4 kg."],
  [
    "Family Dome 6 tent",
    "Tents",
    389,
    "Six-person dome with two bedrooms and a standing-height living area.",
  ],
  ["Ultralight 1 tent", "Tents", 329, "One-person trekking-pole shelter, 890 g, for long-distance hikers."],
  [
    "Ridge 40 backpack",
    "Backpacks",
    139,
    "40-litre hiking pack with a ventilated back panel and rain cover.",
  ],
  [
    "Ridge 65 backpack",
    "Backpacks",
    199,
    "65-litre trekking pack, adjustable torso length, hip-belt pockets.",
  ],
  ["Daypack 22", "Backpacks", 69, "22-litre daypack with a hydration sleeve and a padded laptop pocket."],
  ["Kids Explorer 14", "Backpacks", 45, "14-litre pack sized for children aged 5 to 10, reflective details."],
  [
    "Down 0 sleeping bag",
    "Sleeping bags",
    329,
    "800-fill down, comfort 0 °C, packs to the size of a water bottle.",
  ],
  [
    "Synthetic 5 sleeping bag",
    "Sleeping bags",
    119,
    "Synthetic fill that stays warm when damp, comfort 5 °C.",
  ],
  ["Summer Liner", "Sleeping bags", 39, "Silk-touch liner, adds 2 °C, good alone on warm nights."],
  ["Air Mat Pro", "Sleeping mats", 149, "Insulated air mat, R-value 4.2, 7 cm thick, with a pump sack."],
  ["Foam Mat", "Sleeping mats", 29, "Closed-cell foam mat that never punctures, R-value 2."],
  ["Trail Runner GTX", "Footwear", 159, "Waterproof trail running shoe with a grippy lug sole."],
  ["Alpine Boot", "Footwear", 239, "Leather mountain boot, crampon-compatible, Vibram sole."],
  ["Camp Sandal", "Footwear", 49, "Light sandal for camp and river crossings."],
  ["Storm Shell jacket", "Clothing", 279, "Three-layer waterproof jacket, pit zips, helmet-compatible hood."],
  ["Puffy 800 jacket", "Clothing", 229, "800-fill down jacket, 340 g, packs into its own pocket."],
  ["Merino Base Layer", "Clothing", 79, "Long-sleeve 200 g merino top that does not hold odours."],
  ["Trek Pants", "Clothing", 89, "Stretch hiking trousers with zip-off legs and UPF 50."],
  ["Fleece Midlayer", "Clothing", 69, "Grid fleece that breathes on the climb and warms at the top."],
  ["Titan Stove", "Cooking", 59, "Canister stove boiling a litre in 3 minutes, piezo ignition."],
  ["Cook Set 2", "Cooking", 49, "Anodised aluminium pot and pan for two, with folding handles."],
  ["Insulated Bottle 1L", "Cooking", 35, "Keeps drinks hot for 12 hours and cold for 24."],
  ["Water Filter", "Cooking", 45, "Squeeze filter removing 99.9999% of bacteria, 0.1 micron."],
  ["Head Torch 400", "Lighting", 49, "400-lumen rechargeable head torch with red light mode."],
  ["Camp Lantern", "Lighting", 39, "USB lantern with a power bank, 100 hours on low."],
  ["Trekking Poles", "Accessories", 79, "Carbon folding poles, 240 g each, cork grips."],
  ["First Aid Kit", "Accessories", 35, "Waterproof kit for two people for a week, with a guide."],
  ["GPS Watch", "Electronics", 299, "Outdoor watch with maps, 14-day battery and a barometric altimeter."],
];

const csvCell = (v: string | number) => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

function productsCsv(): Uint8Array {
  const lines = ["name,category,price,description"];
  for (const row of PRODUCTS) lines.push(row.map(csvCell).join(","));
  return new TextEncoder().encode(`${lines.join("\n")}\n`);
}

const POLICIES: { title: string; paragraphs: string[] }[] = [
  {
    title: "Shipping",
    paragraphs: [
      "Orders placed before 2 pm on a working day leave our warehouse the same day. Standard delivery takes 3 to 5 working days in the EU and 5 to 8 working days to the rest of the world.",
      "Shipping is free on orders over 60 EUR. Below that, standard shipping costs 4.90 EUR and express shipping 9.90 EUR. Express orders placed before 2 pm arrive the next working day in the EU.",
      "Every parcel is tracked. The tracking link is sent by email when the parcel leaves the warehouse and is shown on the order page of your account.",
      "Bulky items such as family tents may ship in two parcels that arrive on different days.",
    ],
  },
  {
    title: "Returns and refunds",
    paragraphs: [
      "Unused items in their original packaging can be returned within 30 days of delivery. Print the prepaid return label from the order page of your account; returns are free within the EU.",
      "Refunds are paid to the original payment method within 5 working days of the return reaching the warehouse. Shipping costs are refunded when the whole order is returned.",
      "Items that were used, washed or altered cannot be returned, except under warranty. Gift cards cannot be returned.",
      "To exchange a size, return the item and place a new order: this is the fastest way to get the right size.",
    ],
  },
  {
    title: "Warranty and care",
    paragraphs: [
      "Every product has a 2-year warranty against defects in materials and workmanship. Tents, backpacks and sleeping bags are covered for 5 years.",
      "The warranty does not cover normal wear, accidents or damage from improper care. We repair what can be repaired before replacing it.",
      "To make a claim, write to support@northwind.example with the order number and photos of the defect. We answer within 2 working days.",
      "Care: dry tents and sleeping bags fully before storing them, wash waterproof jackets with a technical cleaner, and store down loosely, never compressed.",
    ],
  },
];

/** Store policies on three pages, drawn with pdf-lib (a development dependency, as the seed is). */
async function policiesPdf(): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  doc.setTitle("Northwind Outdoor store policies");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const size = 11;
  const width = 612 - 2 * 64;
  for (const section of POLICIES) {
    const page = doc.addPage([612, 792]);
    page.drawText(section.title, { x: 64, y: 720, size: 18, font: bold });
    let y = 690;
    for (const paragraph of section.paragraphs) {
      let line = "";
      for (const word of paragraph.split(" ")) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) > width) {
          page.drawText(line, { x: 64, y, size, font });
          y -= 16;
          line = word;
        } else {
          line = next;
        }
      }
      if (line) page.drawText(line, { x: 64, y, size, font });
      y -= 28;
    }
  }
  return doc.save();
}

/** The body of an upload, as the browser sends it to POST /api/context/ingest/file. */
const upload = (bytes: Uint8Array) =>
  new Request("http://localhost/api/context/ingest/file", {
    method: "POST",
    headers: { "content-type": "application/octet-stream", "content-length": String(bytes.byteLength) },
    body: bytes as BodyInit,
  });

/** Adds the three data sources the Demo App lacks, ingests them; one line for the seed's summary. */
export async function seedDemoDataSources(app: App): Promise<string> {
  try {
    const names = new Set((await listContextItems(app.id)).map((i) => i.name));
    const owner = await ownerPlan(app.ownerAccountId);
    if (!names.has(FAQ_NAME)) {
      const { contextItemId } = await ingestText(app, owner, FAQ);
      await renameContextItem(contextItemId, FAQ_NAME);
    }
    if (!names.has(CSV_NAME)) await ingestFile(app, owner, CSV_NAME, upload(productsCsv()));
    if (!names.has(PDF_NAME)) await ingestFile(app, owner, PDF_NAME, upload(await policiesPdf()));
    await runDueJobs();
    const wanted = [FAQ_NAME, CSV_NAME, PDF_NAME];
    const deadline = Date.now() + SYNC_WAIT_MS;
    let items = await listContextItems(app.id);
    // A running dev server's worker may have taken a job first: wait for it to finish.
    while (
      Date.now() < deadline &&
      items.some((i) => wanted.includes(i.name) && ["unsynced", "pending", "running"].includes(i.status))
    ) {
      await new Promise((r) => setTimeout(r, 500));
      await runDueJobs();
      items = await listContextItems(app.id);
    }
    const states = wanted.map((name) => {
      const item = items.find((i) => i.name === name);
      const status = item ? item.status + (item.error ? ` (${item.error})` : "") : "missing";
      return `${name} ${status}`;
    });
    return `Demo App data sources: ${states.join(", ")}`;
  } finally {
    await stopBoss();
  }
}
