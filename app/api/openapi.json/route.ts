import { type OpenApiDocument, OpenApiDocumentAnswer, openApiDocument } from "@/lib/api/openapi";
import { route } from "@/lib/api/route";
import * as registry from "../routes.generated";

// GET /api/openapi.json - this API described in OpenAPI 3.1. Built from the same zod schemas the
// routes validate with, so it cannot drift from them; built once per server, on the first call.
export const GET = route(
  { auth: "public", summary: "This API's OpenAPI 3.1 document", response: OpenApiDocumentAnswer },
  // The document's own module is handed over: the registry cannot import the route that imports it.
  (): Promise<OpenApiDocument> => openApiDocument(registry, { GET }),
);
