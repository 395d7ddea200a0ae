/// The OpenAPI 3.1 document of the server's JSON API and phone endpoints, served at
/// `GET /api/openapi.json` and printed by `trailbook serve --openapi` (docs/openapi.json is that
/// output; a test keeps the two equal and checks real responses against it).
enum OpenAPIDocument {
    static let json = ##"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Trailbook sharing server",
            "version": "1",
            "description": "The JSON API of `trailbook serve` (pairing, grants, friends, live positions) and the endpoints the phone apps post to (OwnTracks, OsmAnd / Traccar Client, Overland, GPSLogger). The API takes `Authorization: Basic USER:PASSWORD` or a browser's session cookie (then non-GET requests need `X-CSRF-Token`). Errors are `{\"error\": {\"message\": SENTENCE}}`. Units: metres, m/s, degrees; times ISO 8601 UTC."
          },
          "paths": {
            "/api/health": {
              "get": {
                "operationId": "health",
                "summary": "Whether the server runs and its store answers.",
                "security": [],
                "responses": {
                  "200": {
                    "description": "It runs.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "status"
                          ],
                          "properties": {
                            "status": {
                              "const": "ok"
                            }
                          }
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/openapi.json": {
              "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "security": [],
                "responses": {
                  "200": {
                    "description": "The OpenAPI document.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/share-codes": {
              "post": {
                "operationId": "createShareCode",
                "summary": "Make a one-time pairing code: whoever redeems it within 15 minutes may see you, within the scopes.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ShareCodeRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The code (shown once; stored hashed).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ShareCode"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/share-codes/redeem": {
              "post": {
                "operationId": "redeemShareCode",
                "summary": "Redeem a friend's code: you may now see them.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object",
                        "required": [
                          "code"
                        ],
                        "properties": {
                          "code": {
                            "type": "string",
                            "description": "XXXX-XXXX; case, spaces and the dash do not matter"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The grant made.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Redeemed"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "422": {
                    "$ref": "#/components/responses/Refused"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/grants": {
              "get": {
                "operationId": "listGrants",
                "summary": "Who sees you.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Your grants, by viewer.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "grants"
                          ],
                          "properties": {
                            "grants": {
                              "type": "array",
                              "items": {
                                "$ref": "#/components/schemas/Grant"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/grants/{user}": {
              "parameters": [
                {
                  "name": "user",
                  "in": "path",
                  "required": true,
                  "schema": {
                    "type": "string"
                  },
                  "description": "The viewer."
                }
              ],
              "patch": {
                "operationId": "updateGrant",
                "summary": "Pause, resume or set when USER's grant ends.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/GrantUpdate"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The grant now.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Grant"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "delete": {
                "operationId": "revokeGrant",
                "summary": "USER stops seeing you at once (their live streams end).",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "responses": {
                  "204": {
                    "description": "Revoked."
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/friends": {
              "get": {
                "operationId": "listFriends",
                "summary": "The newest position of each device of everyone who lets you see them live now.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Friends' devices.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "friends"
                          ],
                          "properties": {
                            "friends": {
                              "type": "array",
                              "items": {
                                "$ref": "#/components/schemas/Friend"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/friends/{user}/track": {
              "get": {
                "operationId": "friendTrack",
                "summary": "USER's points of the last N hours, within the history their grant allows.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "parameters": [
                  {
                    "name": "user",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "hours",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "number",
                      "exclusiveMinimum": 0,
                      "default": 24
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The track.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Track"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/api/live": {
              "get": {
                "operationId": "live",
                "summary": "Server-sent events: `position` (data: a Friend) for each friend's device now, then one per new position; a heartbeat comment every 15 s.",
                "security": [
                  {
                    "basicAuth": []
                  },
                  {
                    "sessionCookie": []
                  }
                ],
                "responses": {
                  "200": {
                    "description": "An endless event stream.",
                    "content": {
                      "text/event-stream": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "429": {
                    "$ref": "#/components/responses/TooMany"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/osmand": {
              "get": {
                "operationId": "osmandGet",
                "summary": "OsmAnd / Traccar Client: one point in the query; `id` is the device token.",
                "security": [
                  {
                    "deviceId": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/id"
                  },
                  {
                    "$ref": "#/components/parameters/lat"
                  },
                  {
                    "$ref": "#/components/parameters/lon"
                  },
                  {
                    "$ref": "#/components/parameters/timestamp"
                  },
                  {
                    "$ref": "#/components/parameters/speed"
                  },
                  {
                    "$ref": "#/components/parameters/bearing"
                  },
                  {
                    "$ref": "#/components/parameters/altitude"
                  },
                  {
                    "$ref": "#/components/parameters/accuracy"
                  },
                  {
                    "$ref": "#/components/parameters/batt"
                  },
                  {
                    "$ref": "#/components/parameters/hdop"
                  },
                  {
                    "$ref": "#/components/parameters/alarm"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Stored (empty body)."
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "422": {
                    "$ref": "#/components/responses/Refused"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "post": {
                "operationId": "osmandPost",
                "summary": "OsmAnd / Traccar Client: the query as above or a form body, or Traccar Client's JSON body (`device_id` is the token).",
                "security": [
                  {
                    "deviceId": []
                  }
                ],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/TraccarClient"
                      }
                    },
                    "application/x-www-form-urlencoded": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "id": {
                            "type": "string"
                          },
                          "lat": {
                            "type": "string"
                          },
                          "lon": {
                            "type": "string"
                          },
                          "timestamp": {
                            "type": "string"
                          },
                          "speed": {
                            "type": "string"
                          },
                          "bearing": {
                            "type": "string"
                          },
                          "altitude": {
                            "type": "string"
                          },
                          "accuracy": {
                            "type": "string"
                          },
                          "batt": {
                            "type": "string"
                          },
                          "hdop": {
                            "type": "string"
                          },
                          "alarm": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Stored (empty body)."
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "422": {
                    "$ref": "#/components/responses/Refused"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/overland": {
              "post": {
                "operationId": "overland",
                "summary": "Overland: a batch of GeoJSON points; the bearer token is the device token. Also what `trailbook record --server` and `trailbook push` send. A feature that is no position (a trip summary, a tracking-stats entry, an unreadable or impossible one) is kept as the device's message and never refuses the batch.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/OverlandBatch"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Stored; anything else makes the app send the batch again.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "result"
                          ],
                          "properties": {
                            "result": {
                              "const": "ok"
                            },
                            "unreadable": {
                              "type": "integer",
                              "description": "Features that are no storable position (kept as the device's messages `overland.unreadable`); absent when none."
                            },
                            "reason": {
                              "type": "string",
                              "description": "Why the first of them could not be stored."
                            }
                          },
                          "additionalProperties": false
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/pub": {
              "post": {
                "operationId": "owntracks",
                "summary": "OwnTracks HTTP mode: one message; Basic USER:DEVICE_TOKEN. A `location` stores a point.",
                "security": [
                  {
                    "basicAuth": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/OwnTracksMessage"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "For each friend who shares with this account live: a `card` and their newest `location`.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "array",
                          "items": {
                            "type": "object",
                            "required": [
                              "_type",
                              "tid"
                            ],
                            "properties": {
                              "_type": {
                                "enum": [
                                  "card",
                                  "location"
                                ]
                              },
                              "tid": {
                                "type": "string"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "422": {
                    "$ref": "#/components/responses/Refused"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/gpslogger": {
              "get": {
                "operationId": "gpsloggerGet",
                "summary": "GPSLogger for Android, custom URL; Basic USER:DEVICE_TOKEN.",
                "security": [
                  {
                    "basicAuth": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/lat"
                  },
                  {
                    "$ref": "#/components/parameters/lon"
                  },
                  {
                    "$ref": "#/components/parameters/time"
                  },
                  {
                    "$ref": "#/components/parameters/gpsTimestamp"
                  },
                  {
                    "$ref": "#/components/parameters/alt"
                  },
                  {
                    "$ref": "#/components/parameters/acc"
                  },
                  {
                    "$ref": "#/components/parameters/spd"
                  },
                  {
                    "$ref": "#/components/parameters/dir"
                  },
                  {
                    "$ref": "#/components/parameters/batt"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Stored (empty body)."
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "422": {
                    "$ref": "#/components/responses/Refused"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "post": {
                "operationId": "gpsloggerPost",
                "summary": "GPSLogger with the values as a form body.",
                "security": [
                  {
                    "basicAuth": []
                  }
                ],
                "requestBody": {
                  "required": false,
                  "content": {
                    "application/x-www-form-urlencoded": {
                      "schema": {
                        "type": "object",
                        "properties": {
                          "lat": {
                            "type": "string"
                          },
                          "lon": {
                            "type": "string"
                          },
                          "time": {
                            "type": "string"
                          },
                          "timestamp": {
                            "type": "string"
                          },
                          "alt": {
                            "type": "string"
                          },
                          "acc": {
                            "type": "string"
                          },
                          "spd": {
                            "type": "string"
                          },
                          "dir": {
                            "type": "string"
                          },
                          "batt": {
                            "type": "string"
                          }
                        }
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Stored (empty body)."
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "422": {
                    "$ref": "#/components/responses/Refused"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "basicAuth": {
                "type": "http",
                "scheme": "basic",
                "description": "USER:PASSWORD for the API; USER:DEVICE_TOKEN for /pub and /gpslogger."
              },
              "bearerAuth": {
                "type": "http",
                "scheme": "bearer",
                "description": "A device token (trailbook device add)."
              },
              "sessionCookie": {
                "type": "apiKey",
                "in": "cookie",
                "name": "trailbook_session",
                "description": "A browser's session after signing in at /; non-GET requests also need the X-CSRF-Token header."
              },
              "deviceId": {
                "type": "apiKey",
                "in": "query",
                "name": "id",
                "description": "A device token as OsmAnd's device identifier."
              }
            },
            "parameters": {
              "id": {
                "name": "id",
                "in": "query",
                "required": true,
                "schema": {
                  "type": "string"
                },
                "description": "The device token."
              },
              "lat": {
                "name": "lat",
                "in": "query",
                "required": true,
                "schema": {
                  "type": "number",
                  "minimum": -90,
                  "maximum": 90
                }
              },
              "lon": {
                "name": "lon",
                "in": "query",
                "required": true,
                "schema": {
                  "type": "number",
                  "minimum": -180,
                  "maximum": 180
                }
              },
              "timestamp": {
                "name": "timestamp",
                "in": "query",
                "schema": {
                  "type": "string"
                },
                "description": "Seconds or milliseconds since 1970, or ISO 8601; default now."
              },
              "speed": {
                "name": "speed",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Knots (Traccar Client), or m/s when the timestamp is in milliseconds or `hdop` comes without `accuracy` (OsmAnd)."
              },
              "bearing": {
                "name": "bearing",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Degrees."
              },
              "altitude": {
                "name": "altitude",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Metres."
              },
              "accuracy": {
                "name": "accuracy",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Metres."
              },
              "batt": {
                "name": "batt",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Battery, percent."
              },
              "hdop": {
                "name": "hdop",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "OsmAnd's `{3}`: the accuracy radius in metres (read when `accuracy` is absent)."
              },
              "alarm": {
                "name": "alarm",
                "in": "query",
                "schema": {
                  "type": "string"
                },
                "description": "Traccar Client's alarm (`sos`): a `device.alarm` event every alert of the account sends at once."
              },
              "time": {
                "name": "time",
                "in": "query",
                "schema": {
                  "type": "string"
                },
                "description": "ISO 8601."
              },
              "gpsTimestamp": {
                "name": "timestamp",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Seconds since 1970 (when there is no time)."
              },
              "alt": {
                "name": "alt",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Metres."
              },
              "acc": {
                "name": "acc",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Metres."
              },
              "spd": {
                "name": "spd",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "m/s."
              },
              "dir": {
                "name": "dir",
                "in": "query",
                "schema": {
                  "type": "number"
                },
                "description": "Degrees."
              }
            },
            "responses": {
              "BadRequest": {
                "description": "The request is malformed (not JSON, a value of the wrong kind); the message says which.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unauthorized": {
                "description": "No or wrong credentials (with a `WWW-Authenticate: Basic` challenge on the JSON API).",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "NotFound": {
                "description": "Nothing there for this account (no such grant, or none with the scope).",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "TooLarge": {
                "description": "The body is over 8 MB; it is not read.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Refused": {
                "description": "Refused: the message says why (a point off the Earth, with a non-finite value or a time more than a year from now; a wrong, used or expired code). Nothing is stored.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "TooMany": {
                "description": "Too many failures: wrong passwords for the account or from the address (10 and 30 in 15 minutes), or wrong codes (5 in 15 minutes); try again later.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Forbidden": {
                "description": "Signed in with the session cookie but without the page's X-CSRF-Token (requests other than GET).",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unavailable": {
                "description": "The store does not answer for now (its database is away or busy); send the request again later, after Retry-After seconds. Nothing of it was kept.",
                "headers": {
                  "Retry-After": {
                    "description": "Seconds to wait.",
                    "schema": {
                      "type": "integer"
                    }
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              }
            },
            "schemas": {
              "Error": {
                "type": "object",
                "required": [
                  "error"
                ],
                "properties": {
                  "error": {
                    "type": "object",
                    "required": [
                      "message"
                    ],
                    "properties": {
                      "message": {
                        "type": "string"
                      }
                    }
                  }
                }
              },
              "Scope": {
                "enum": [
                  "live",
                  "motion",
                  "history",
                  "events"
                ]
              },
              "ShareCodeRequest": {
                "type": "object",
                "properties": {
                  "scopes": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Scope"
                    },
                    "default": [
                      "live"
                    ]
                  },
                  "history_hours": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 8784,
                    "default": 0,
                    "description": "How far back the viewer may see your track (with the history scope)."
                  }
                }
              },
              "ShareCode": {
                "type": "object",
                "required": [
                  "code",
                  "expires_at"
                ],
                "properties": {
                  "code": {
                    "type": "string",
                    "pattern": "^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$"
                  },
                  "expires_at": {
                    "type": "string",
                    "format": "date-time",
                    "description": "ISO 8601, UTC, milliseconds: 2026-06-14T06:30:00.000Z"
                  }
                }
              },
              "Redeemed": {
                "type": "object",
                "required": [
                  "owner",
                  "scopes",
                  "history_hours"
                ],
                "properties": {
                  "owner": {
                    "type": "string"
                  },
                  "scopes": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Scope"
                    }
                  },
                  "history_hours": {
                    "type": "integer"
                  }
                }
              },
              "Grant": {
                "type": "object",
                "required": [
                  "viewer",
                  "scopes",
                  "history_hours",
                  "created",
                  "paused",
                  "expires_at"
                ],
                "properties": {
                  "viewer": {
                    "type": "string"
                  },
                  "scopes": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Scope"
                    }
                  },
                  "history_hours": {
                    "type": "integer"
                  },
                  "created": {
                    "type": "string",
                    "format": "date-time",
                    "description": "ISO 8601, UTC, milliseconds: 2026-06-14T06:30:00.000Z"
                  },
                  "paused": {
                    "type": "boolean"
                  },
                  "expires_at": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time"
                  }
                }
              },
              "GrantUpdate": {
                "type": "object",
                "properties": {
                  "paused": {
                    "type": "boolean"
                  },
                  "expires_at": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "format": "date-time",
                    "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})$",
                    "description": "When the grant ends (ISO 8601 with a zone); null: never."
                  }
                }
              },
              "Friend": {
                "type": "object",
                "required": [
                  "user",
                  "device",
                  "time",
                  "lat",
                  "lon",
                  "age_s"
                ],
                "properties": {
                  "user": {
                    "type": "string"
                  },
                  "device": {
                    "type": "string"
                  },
                  "time": {
                    "type": "string",
                    "format": "date-time",
                    "description": "ISO 8601, UTC, milliseconds: 2026-06-14T06:30:00.000Z"
                  },
                  "lat": {
                    "type": "number"
                  },
                  "lon": {
                    "type": "number"
                  },
                  "age_s": {
                    "type": "number",
                    "description": "Seconds since the fix."
                  },
                  "speed": {
                    "type": "number",
                    "description": "m/s"
                  },
                  "course": {
                    "type": "number",
                    "description": "Degrees true."
                  },
                  "moving": {
                    "type": "boolean",
                    "description": "From the fixes of the two minutes before the newest (with the motion scope)."
                  },
                  "accuracy": {
                    "type": "number",
                    "description": "Metres, as the phone sent it."
                  },
                  "battery": {
                    "type": "number",
                    "description": "Percent."
                  }
                }
              },
              "Track": {
                "type": "object",
                "required": [
                  "user",
                  "from",
                  "points"
                ],
                "properties": {
                  "user": {
                    "type": "string"
                  },
                  "from": {
                    "type": "string",
                    "format": "date-time",
                    "description": "ISO 8601, UTC, milliseconds: 2026-06-14T06:30:00.000Z"
                  },
                  "points": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "device",
                        "time",
                        "lat",
                        "lon"
                      ],
                      "properties": {
                        "device": {
                          "type": "string"
                        },
                        "time": {
                          "type": "string",
                          "format": "date-time",
                          "description": "ISO 8601, UTC, milliseconds: 2026-06-14T06:30:00.000Z"
                        },
                        "lat": {
                          "type": "number"
                        },
                        "lon": {
                          "type": "number"
                        },
                        "alt": {
                          "type": "number"
                        },
                        "speed": {
                          "type": "number"
                        },
                        "course": {
                          "type": "number"
                        }
                      }
                    }
                  }
                }
              },
              "OverlandBatch": {
                "type": "object",
                "required": [
                  "locations"
                ],
                "properties": {
                  "locations": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "geometry",
                        "properties"
                      ],
                      "properties": {
                        "type": {
                          "const": "Feature"
                        },
                        "geometry": {
                          "type": "object",
                          "required": [
                            "type",
                            "coordinates"
                          ],
                          "properties": {
                            "type": {
                              "const": "Point"
                            },
                            "coordinates": {
                              "type": "array",
                              "items": {
                                "type": "number"
                              },
                              "minItems": 2,
                              "description": "[lon, lat] or [lon, lat, alt]"
                            }
                          }
                        },
                        "properties": {
                          "type": "object",
                          "required": [
                            "timestamp"
                          ],
                          "properties": {
                            "timestamp": {
                              "type": "string",
                              "format": "date-time"
                            },
                            "altitude": {
                              "type": "number"
                            },
                            "speed": {
                              "type": "number",
                              "description": "m/s; below 0: unknown"
                            },
                            "course": {
                              "type": "number",
                              "description": "Degrees true; below 0: unknown; over 360: refused"
                            },
                            "horizontal_accuracy": {
                              "type": "number"
                            },
                            "battery_level": {
                              "type": "number",
                              "description": "0-1"
                            },
                            "device_id": {
                              "type": "string"
                            }
                          }
                        }
                      }
                    }
                  }
                }
              },
              "TraccarClient": {
                "type": "object",
                "required": [
                  "location"
                ],
                "properties": {
                  "device_id": {
                    "type": "string",
                    "description": "The device token."
                  },
                  "location": {
                    "type": "object",
                    "required": [
                      "timestamp",
                      "coords"
                    ],
                    "properties": {
                      "timestamp": {
                        "type": "string",
                        "format": "date-time"
                      },
                      "coords": {
                        "type": "object",
                        "required": [
                          "latitude",
                          "longitude"
                        ],
                        "properties": {
                          "latitude": {
                            "type": "number"
                          },
                          "longitude": {
                            "type": "number"
                          },
                          "accuracy": {
                            "type": "number"
                          },
                          "speed": {
                            "type": "number"
                          },
                          "heading": {
                            "type": "number"
                          },
                          "altitude": {
                            "type": "number"
                          }
                        }
                      },
                      "battery": {
                        "type": "object",
                        "properties": {
                          "level": {
                            "type": "number",
                            "description": "0-1"
                          }
                        }
                      }
                    }
                  }
                }
              },
              "OwnTracksMessage": {
                "type": "object",
                "required": [
                  "_type"
                ],
                "properties": {
                  "_type": {
                    "type": "string",
                    "description": "location stores a point; transition, waypoint, waypoints and lwt are kept as sent (the regions of waypoint and waypoints also become places of the account); other types are accepted and ignored."
                  },
                  "lat": {
                    "type": "number"
                  },
                  "lon": {
                    "type": "number"
                  },
                  "tst": {
                    "type": "integer",
                    "description": "Seconds since 1970."
                  },
                  "acc": {
                    "type": "number"
                  },
                  "alt": {
                    "type": "number"
                  },
                  "vel": {
                    "type": "number",
                    "description": "km/h"
                  },
                  "cog": {
                    "type": "number"
                  },
                  "batt": {
                    "type": "number",
                    "description": "Percent."
                  },
                  "tid": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
        """##
}
