// The resource classes, one per kind of the registry that has a `resource.ts`: the list is generated (`npm run generate`).
export * from "./resources.generated";
