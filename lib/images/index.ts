export * from "./rules";
export { processImage, type ProcessedImage } from "./process";
export { deleteImages, storeImage, type StoredImage } from "./store";
export { uploadedImageBytes } from "./upload";
