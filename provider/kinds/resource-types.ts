// A resource class's args and outputs, derived from its kind's generated types: a field is written once, in its zod schema.
import type * as pulumi from "@pulumi/pulumi";
import type { LivesIn } from "./kind-types.generated";

/** `T` as a program may give it: an Output or a Promise at any depth. `[T]` keeps a union (a format's values) whole. */
type InputOf<T> = [T] extends [ReadonlyArray<infer E>]
  ? pulumi.Input<InputOf<E>[]>
  : [T] extends [object]
    ? pulumi.Input<{ [K in keyof T]: InputOf<T[K]> }>
    : pulumi.Input<T>;

/** A class's args: its kind's inputs (`kind-types.generated.ts`), the `Assets` among them taking a `pulumi.asset.Asset`. */
export type ResourceArgs<Inputs, Assets extends keyof Inputs = never> = {
  [K in keyof Inputs]: K extends Assets ? pulumi.Input<pulumi.asset.Asset> : InputOf<Inputs[K]>;
};

/** A class's outputs: its kind's state (`kind-types.generated.ts`) and the service it lives in. */
export type ResourceOutputs<State> = { readonly [K in keyof (State & LivesIn)]-?: pulumi.Output<(State & LivesIn)[K]> };
