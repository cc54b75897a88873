// The project compiles without the DOM lib (it would change Node's fetch types everywhere), so
// @types/jsdom is not used: this declares the little of jsdom the sanitiser and the error
// injections (src/learning/inject) touch.
declare module 'jsdom' {
  export interface MiniNode {
    readonly nodeName: string;
    readonly nodeType: number;
    textContent: string | null;
    nodeValue: string | null;
    readonly parentElement: MiniElement | null;
    readonly childNodes: ArrayLike<MiniNode> & Iterable<MiniNode>;
    remove(): void;
  }
  export interface MiniElement extends MiniNode {
    readonly outerHTML: string;
    innerHTML: string;
    readonly children: ArrayLike<MiniElement> & Iterable<MiniElement>;
    getAttribute(name: string): string | null;
    getAttributeNames(): string[];
    setAttribute(name: string, value: string): void;
    removeAttribute(name: string): void;
    querySelectorAll(selector: string): Iterable<MiniElement> & { readonly length: number };
    closest(selector: string): MiniElement | null;
    append(...nodes: Array<MiniNode | string>): void;
    replaceWith(...nodes: Array<MiniNode | string>): void;
    after(...nodes: Array<MiniNode | string>): void;
  }
  export interface MiniDocument {
    readonly documentElement: MiniElement;
    readonly head: MiniElement;
    readonly body: MiniElement;
    querySelectorAll(selector: string): Iterable<MiniElement> & { readonly length: number };
    createElement(tag: string): MiniElement;
  }
  export class JSDOM {
    constructor(html?: string);
    readonly window: { readonly document: MiniDocument };
  }
}
