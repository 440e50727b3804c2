/** Which service a base URL reaches: what a resource records, and which spellings are the same service. */
import { sameService, serviceLocation } from "../../client/service-location";

test("recorded without credentials, query, fragment or trailing slash", () => {
  expect(serviceLocation("https://user:pw@api.example.com/messaging/?x=1#y")).toBe("https://api.example.com/messaging");
  expect(serviceLocation("http://127.0.0.1:4010/")).toBe("http://127.0.0.1:4010");
  expect(serviceLocation("not a url")).toBeUndefined();
});

test.each([
  ["http://127.0.0.1:4010", "http://localhost:4010/"],
  ["http://127.0.0.1:4010", "http://[::1]:4010"],
  ["https://API.example.com", "https://api.example.com:443/"],
  ["https://api.example.com/v", "https://api.example.com/v//"],
])("%s and %s are the same service", (a, b) => {
  expect(sameService(a, b)).toBe(true);
  expect(sameService(b, a)).toBe(true);
});

test.each([
  ["http://127.0.0.1:4010", "http://127.0.0.1:4011"],
  ["https://staging.example.com", "https://api.example.com"],
  ["http://api.example.com", "https://api.example.com"],
  ["https://api.example.com/a", "https://api.example.com/b"],
  ["https://api.example.com", "not a url"],
])("%s and %s are two services", (a, b) => {
  expect(sameService(a, b)).toBe(false);
});
