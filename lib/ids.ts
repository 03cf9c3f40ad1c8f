const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID: ids from paths and payloads are checked before they reach a query. */
export const isUuid = (id: string) => UUID.test(id);
