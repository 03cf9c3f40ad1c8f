"use client";

import { apiFetch } from "@/components/auth/api-client";
import { ModelListAnswer } from "@/lib/ai/schemas";

// GET /api/models (the provider's list, cached by the server, or its built-in list), asked once
// per page load: the list is the same for every app and changes rarely. The settings' model
// dropdown and the repair's custom model choose from it.

let pending: Promise<ModelListAnswer> | null = null;

export function loadModels(): Promise<ModelListAnswer> {
  pending ??= apiFetch("/api/models")
    .then((answer) => ModelListAnswer.parse(answer))
    .catch((err) => {
      pending = null; // asked again the next time a list is opened
      throw err;
    });
  return pending;
}
