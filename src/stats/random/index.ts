export { Xoshiro128, createRng, randomSeed } from './xoshiro.js';
