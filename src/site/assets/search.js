// Live search: streams /ask results into the header box and the search page.
export {};
