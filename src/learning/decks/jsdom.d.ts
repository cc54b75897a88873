// The project compiles without the DOM lib (it would change Node's fetch types everywhere), so
// @types/jsdom is not used: this declares the little of jsdom the sanitiser touches.
declare module 'jsdom' {
  export interface MiniElement {
    readonly nodeName: string;
    readonly nodeType: number;
    readonly outerHTML: string;
    textContent: string | null;
    getAttribute(name: string): string | null;
    setAttribute(name: string, value: string): void;
    removeAttribute(name: string): void;
    remove(): void;
    querySelectorAll(selector: string): Iterable<MiniElement> & { readonly length: number };
    append(node: MiniNode): void;
  }
  export interface MiniNode { readonly nodeType: number }
  export interface MiniDocument {
    readonly documentElement: MiniElement;
    querySelectorAll(selector: string): Iterable<MiniElement> & { readonly length: number };
    createTextNode(text: string): MiniNode;
  }
  export class JSDOM {
    constructor(html?: string);
    readonly window: { readonly document: MiniDocument };
  }
}
